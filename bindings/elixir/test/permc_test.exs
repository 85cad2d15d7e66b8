defmodule PermcTest do
  # Every request of examples/ and tests/corpus/ decided through the NIF
  # equals `permc decide`'s answer; bad requests, rejected rule files and
  # corrupt artifacts are errors; hostile terms never crash the VM and
  # never yield auto_approve.
  use ExUnit.Case, async: true

  @repo Path.expand("../../..", __DIR__)
  @corpus System.get_env("PERMC_CORPUS") || Path.join(@repo, "bindings/target/corpus")

  @base %{
    "action" => %{"type" => "terminal", "command" => "pnpm test", "agent" => "dev-web"},
    "context" => %{
      "role" => "developer",
      "executionMode" => "container",
      "containerRunning" => true,
      "projectScopeRoot" => "/home/ana/p"
    }
  }

  defp cases do
    {cases, _} = Code.eval_file(Path.join(@corpus, "cases.exs"))
    cases
  end

  defp examples_policy do
    {:ok, p} =
      Permc.load(
        Path.join(@repo, "examples/permissions.json"),
        Path.join(@repo, "examples/autonomy.json")
      )

    p
  end

  # The NIF's answer in the CLI's JSON shape (string keys, the policy a
  # string); an error as `{"error": …}` (the CLI echoes `id` there too).
  defp as_cli({:error, %{code: code, message: m}}),
    do: %{"error" => %{"code" => Atom.to_string(code), "message" => m}}

  defp as_cli({:ok, %{} = d}) do
    Map.new(d, fn
      {:policy, p} -> {"policy", Atom.to_string(p)}
      {:reason, r} -> {"reason", Atom.to_string(r)}
      {:autonomy_origin, o} -> {"autonomyOrigin", o}
      {:scope_root, s} -> {"scopeRoot", s}
      {k, v} -> {Atom.to_string(k), v}
    end)
  end

  defp expected(%{"error" => _} = a), do: Map.delete(a, "id")
  defp expected(a), do: a

  defp atomize(%{} = m), do: Map.new(m, fn {k, v} -> {String.to_atom(k), atomize(v)} end)
  defp atomize(l) when is_list(l), do: Enum.map(l, &atomize/1)
  defp atomize(v), do: v

  defp load_dir(dir) do
    Permc.load(Path.join([@corpus, dir, "permissions.json"]), Path.join([@corpus, dir, "autonomy.json"]))
  end

  test "every request of examples/ and the corpus: the NIF answers as permc decide, field for field" do
    cases = cases()
    assert length(cases) > 1000
    policies = cases |> Enum.map(& &1["policy"]) |> Enum.uniq() |> Map.new(fn d -> {:ok, p} = load_dir(d); {d, p} end)

    for c <- cases do
      p = policies[c["policy"]]
      want = expected(c["answer"])
      assert as_cli(Permc.decide(p, c["request"])) == want, "#{c["name"]} (string keys)"
      assert as_cli(Permc.decide(p, atomize(c["request"]))) == want, "#{c["name"]} (atom keys)"
    end
  end

  test "the typed reading of a request answers as its tree: an `id` sends the same request through the tree" do
    # A map of known fields is read straight into the request; with an `id`
    # it goes through the JSON tree and the strict reader. Decisions (less
    # the echoed id) and errors must be the same either way.
    cases = cases()
    policies = cases |> Enum.map(& &1["policy"]) |> Enum.uniq() |> Map.new(fn d -> {:ok, p} = load_dir(d); {d, p} end)
    without_id = fn
      {:error, e} -> {:error, e}
      {:ok, d} -> {:ok, Map.delete(d, :id)}
    end

    edges = [
      put_in(@base, ["action", "type"], :terminal),
      put_in(@base, ["action", "cwd"], nil),
      put_in(@base, ["action", "cwd"], ""),
      put_in(@base, ["context", "containerRunning"], nil),
      put_in(@base, ["context", "executionMode"], :runner),
      put_in(@base, ["context", "projectScopeRoot"], :p),
      put_in(@base, ["action", "command"], :ls),
      put_in(@base, ["action", "command"], <<0xFF>>),
      put_in(@base, ["context", "role"], :god)
    ]

    same = fn p, r ->
      assert Permc.decide(p, r) == without_id.(Permc.decide(p, Map.put(r, "id", 0))), inspect(r)
      a = atomize(r)
      assert Permc.decide(p, a) == without_id.(Permc.decide(p, Map.put(a, :id, 0))), inspect(a)
    end

    for r <- edges, do: same.(examples_policy(), r)

    for c <- cases, is_map(c["request"]), not Map.has_key?(c["request"], "id") do
      same.(policies[c["policy"]], c["request"])
    end
  end

  test "the examples through an artifact decide as through the rule files" do
    permc = System.get_env("PERMC") || Path.join(@repo, "target/debug/permc")
    art = Path.join(System.tmp_dir!(), "permc-nif-#{System.unique_integer([:positive])}.permc")

    {_, 0} =
      System.cmd(permc, [
        "compile",
        "--permissions",
        Path.join(@repo, "examples/permissions.json"),
        "--autonomy",
        Path.join(@repo, "examples/autonomy.json"),
        "-o",
        art
      ])

    {:ok, from_artifact} = Permc.load_artifact(art)
    p = examples_policy()

    for c <- cases(), String.starts_with?(c["name"], "examples/") do
      assert Permc.decide(from_artifact, c["request"]) == Permc.decide(p, c["request"])
    end

    # Corrupt: truncated, a byte flipped in the middle, not an artifact.
    bytes = File.read!(art)
    half = div(byte_size(bytes), 2)
    <<head::binary-size(half), b, tail::binary>> = bytes

    for bad <- [binary_part(bytes, 0, half), head <> <<Bitwise.bxor(b, 0xFF)>> <> tail, "not an artifact", ""] do
      File.write!(art, bad)
      assert {:error, [%{check: "artifact", file: ^art, message: m}]} = Permc.load_artifact(art)
      assert is_binary(m)
    end

    File.rm!(art)
    assert {:error, [%{check: "unreadable-file", file: ^art, line: nil}]} = Permc.load_artifact(art)

    # Its bytes, held in memory, load as the file.
    {:ok, from_bytes} = Permc.load_artifact_bytes(bytes)

    for c <- cases(), String.starts_with?(c["name"], "examples/") do
      assert Permc.decide(from_bytes, c["request"]) == Permc.decide(p, c["request"])
    end

    assert {:error, [%{check: "artifact", file: "the artifact"}]} =
             Permc.load_artifact_bytes(binary_part(bytes, 0, half))
  end

  test "decide_json/2 decides a JSON line as decide/2 decides its map" do
    lines = File.read!(Path.join(@repo, "examples/requests.jsonl")) |> String.split("\n", trim: true)
    by_name = Map.new(cases(), &{&1["name"], &1})
    assert length(lines) > 10

    for {line, i} <- Enum.with_index(lines, 1), c = by_name["examples/requests.jsonl:#{i}"] do
      {:ok, p} = load_dir(c["policy"])
      assert Permc.decide_json(p, line) == Permc.decide(p, c["request"]), line
    end

    p = examples_policy()
    assert {:error, %{code: :invalid_json}} = Permc.decide_json(p, "{")
    assert {:error, %{code: :invalid_json}} = Permc.decide_json(p, <<0xFF>>)
    assert {:error, %{code: :unknown_field}} = Permc.decide_json(p, ~s({"action": {"type": "spend"}, "context": {"role": "owner", "rolee": 1}}))
    assert {:error, %{code: :invalid_argument}} = Permc.decide_json(p, 42)
    # A long line: on a dirty scheduler, the same answer.
    long = ~s({"action": {"type": "terminal", "command": "ls #{String.duplicate("x", 100_000)}"}, "context": {"role": "developer", "projectScopeRoot": "/p"}})
    assert {:ok, %{policy: _}} = Permc.decide_json(p, long)
    assert %{policy: _, id: 7} = Permc.decide_json!(p, ~s({"id": 7, "action": {"type": "spend"}, "context": {"role": "owner"}}))
    assert_raise Permc.Error, ~r/JSON|json|EOF|end/i, fn -> Permc.decide_json!(p, "{") end
  end

  test "decide_many/2: every request of the corpus answered in its slot as decide/2 answers it" do
    cases = cases()
    by_policy = Enum.group_by(cases, & &1["policy"])

    for {dir, cs} <- by_policy do
      {:ok, p} = load_dir(dir)
      requests = Enum.map(cs, & &1["request"])
      atomized = Enum.map(requests, &atomize/1)
      # Short batches on the caller's scheduler, the whole list in slices:
      # the same answers.
      for reqs <- [requests, atomized] do
        want = Enum.map(reqs, &Permc.decide(p, &1))
        assert Permc.decide_many(p, reqs) == want, dir
        assert reqs |> Enum.chunk_every(7) |> Enum.flat_map(&Permc.decide_many(p, &1)) == want, dir
      end
    end
  end

  # The NIF reads a term once a run of requests (the same cwd, scope root
  # and names in each) and makes an answer's string once a slice: requests
  # built from the same terms, their values changing between neighbours,
  # each answered as decide/2 answers it alone, across slices.
  test "decide_many/2: requests sharing terms answered each as decide/2 answers it" do
    p = examples_policy()
    root = "/home/ana/p"

    reqs =
      for command <- ["pnpm test", "cat /etc/passwd", "rm -rf /"],
          cwd <- [root, "/etc", nil, root],
          type <- ["terminal", :terminal],
          mode <- ["container", "runner"] do
        %{
          action: %{type: type, command: command, cwd: cwd, agent: "dev-web"},
          context: %{role: "developer", executionMode: mode, containerRunning: true, projectScopeRoot: root}
        }
      end

    many = reqs |> List.duplicate(4) |> List.flatten()
    want = Enum.map(many, &Permc.decide(p, &1))
    assert length(Enum.uniq(want)) > 2
    assert Permc.decide_many(p, many) == want
    assert Permc.decide_many(p, Enum.reverse(many)) == Enum.reverse(want)
  end

  test "decide_brief/2: the policy and reason of decide/2's answer, or its error, for every request of the corpus" do
    brief = fn
      {:ok, %{policy: p, reason: r}} -> {:ok, p, r}
      {:error, e} -> {:error, e}
    end

    for {dir, cs} <- Enum.group_by(cases(), & &1["policy"]) do
      {:ok, p} = load_dir(dir)

      for c <- cs, r <- [c["request"], atomize(c["request"])] do
        assert Permc.decide_brief(p, r) == brief.(Permc.decide(p, r)), c["name"]
      end
    end

    p = examples_policy()
    long = put_in(@base, ["action", "command"], String.duplicate("a=$b ", 2_000))

    for r <- [long, Map.put(@base, "id", 1), put_in(@base, ["context", "executonMode"], "x"), self()] do
      assert Permc.decide_brief(p, r) == brief.(Permc.decide(p, r))
    end
  end

  test "decide_many/2: errors, JSON lines, heavy and deep requests are each answered in their slot" do
    p = examples_policy()
    line = ~s({"id": 3, "action": {"type": "terminal", "command": "pnpm test"}, "context": {"role": "developer", "projectScopeRoot": "/p"}})
    long = put_in(@base, ["action", "command"], String.duplicate("a=$b ", 2_000))
    deep = Map.put(@base, "id", Enum.reduce(1..100, %{}, fn _, acc -> %{"a" => acc} end))

    batch = [
      @base,
      put_in(@base, ["context", "executonMode"], "runner"),
      Map.put(@base, "action", Map.put(@base["action"], :command, "ls")),
      put_in(@base, ["action", "command"], self()),
      line,
      "{",
      long,
      deep,
      Enum.reduce(1..200, %{}, fn _, acc -> %{"a" => acc} end),
      %{},
      42
    ]

    want =
      Enum.map(batch, fn
        r when is_binary(r) -> Permc.decide_json(p, r)
        r -> Permc.decide(p, r)
      end)

    assert [{:ok, _}, {:error, %{code: :unknown_field}}, {:error, %{code: :duplicate_key}} | _] = want
    assert Permc.decide_many(p, batch) == want
    # Past a slice (1,024 requests or half a millisecond): in slices; from
    # the heavy one on, on a dirty scheduler, the deep ones there by decide/2.
    many = List.duplicate(batch, 10) |> List.flatten()
    assert Permc.decide_many(p, many) == List.duplicate(want, 10) |> List.flatten()
    # Past 4,096: on a dirty scheduler whole.
    long_list = List.duplicate(batch, 400) |> List.flatten()
    assert Permc.decide_many(p, long_list) == List.duplicate(want, 400) |> List.flatten()
    light = List.duplicate(@base, 1500)
    assert Permc.decide_many(p, light) == List.duplicate(hd(want), 1500)
    # A malformed request is an error in its slot, never a decision.
    for i <- [1, 2, 3, 5, 8, 9, 10], do: assert({:error, _} = Enum.at(want, i))

    assert Permc.decide_many(p, []) == []
    assert {:error, %{code: :invalid_argument}} = Permc.decide_many(p, [@base | @base])
    assert {:error, %{code: :invalid_argument}} = Permc.decide_many(:not_a_policy, [@base])
  end

  test "explain_data/2: the steps of SPEC §5.3 as data, snake_case keys, the decision as decide/2's" do
    p = examples_policy()
    assert {:ok, e} = Permc.explain_data(p, @base)
    assert e.decision == Permc.decide!(p, @base)
    assert e.engines_agree == true
    assert [%{step: "1. IAM", outcome: o} | _] = e.steps
    assert is_binary(o)
    assert %{role: "developer", execution_mode: "container", project_scope_root: _} = e.context
    assert [%{words: _, nested: false} | _] = e.segments
    assert {:error, %{code: :unknown_field}} = Permc.explain_data(p, put_in(@base, ["context", "rolee"], "x"))
  end

  test "watch/3: a policy that reloads on change and keeps the last good one when broken" do
    dir = Path.join(System.tmp_dir!(), "permc-watch-#{System.unique_integer([:positive])}")
    File.mkdir_p!(dir)
    perms = Path.join(dir, "permissions.json")
    File.write!(perms, ~S|{"allow": ["Terminal(pnpm test)"]}|)
    Process.flag(:trap_exit, true)
    {:ok, w} = Permc.watch(perms, nil, interval: 20)
    assert {:ok, %{policy: :auto_approve}} = Permc.Watcher.decide(w, @base)

    File.write!(perms, ~S|{"deny": ["Terminal(pnpm)"]}|)
    assert_receive {:permc_watch, ^w, {:reloaded, 2}}, 5_000
    assert {:ok, %{policy: :deny}} = Permc.Watcher.decide(w, @base)

    File.write!(perms, ~S|{"deny": ["Terminal(pnpm)"|)
    assert_receive {:permc_watch, ^w, {:rejected, [%{check: "invalid-json"} | _]}}, 5_000
    assert {:ok, %{policy: :deny}} = Permc.Watcher.decide(w, @base)
    assert Permc.Watcher.generation(w) == 2

    File.write!(perms, ~S|{"allow": ["Terminal(pnpm test)"]}|)
    assert_receive {:permc_watch, ^w, {:reloaded, 3}}, 5_000
    assert {:ok, %{policy: :auto_approve}} = Permc.Watcher.decide(w, @base)

    Permc.Watcher.stop(w)
    File.rm_rf!(dir)
    assert {:error, [%{check: "unreadable-file"}]} = Permc.watch(perms, nil)
  end

  test "watch/3 with config: keeps permc.toml's rows on reload and reloads them when it changes" do
    dir = Path.join(System.tmp_dir!(), "permc-watch-rows-#{System.unique_integer([:positive])}")
    File.mkdir_p!(dir)
    perms = Path.join(dir, "permissions.json")
    config = Path.join(dir, "permc.toml")
    File.write!(perms, ~S|{"allow": ["Terminal(./deploy.sh)"]}|)
    File.write!(config, "[[command]]\nname = \"./deploy.sh\"\neffects = [\"code\"]\n")
    deploy = put_in(@base, ["action", "command"], "./deploy.sh prod")
    Process.flag(:trap_exit, true)
    {:ok, w} = Permc.watch(perms, nil, interval: 20, config: config)
    assert {:ok, %{policy: :require_approval}} = Permc.Watcher.decide(w, deploy)

    File.write!(perms, ~S|{"allow": ["Terminal(./deploy.sh)", "Terminal(ls)"]}|)
    assert_receive {:permc_watch, ^w, {:reloaded, 2}}, 5_000
    assert {:ok, %{policy: :require_approval}} = Permc.Watcher.decide(w, deploy)

    File.write!(config, "# no rows\n")
    assert_receive {:permc_watch, ^w, {:reloaded, 3}}, 5_000
    assert {:ok, %{policy: :auto_approve}} = Permc.Watcher.decide(w, deploy)

    Permc.Watcher.stop(w)
    File.rm_rf!(dir)
  end

  test "decide!/2 returns the decision, snake_case atom keys, policy and reason atoms" do
    p = examples_policy()
    d = Permc.decide!(p, @base)
    assert is_atom(d.policy) and is_atom(d.reason)
    assert Enum.all?(Map.keys(d), &(&1 in [:policy, :reason, :rule, :source, :autonomy_origin, :scope_root, :message]))
    assert Map.has_key?(d, :scope_root)
    err = assert_raise Permc.Error, fn -> Permc.decide!(p, put_in(@base, ["context", "rolee"], "x")) end
    assert err.code == :unknown_field
  end

  test "rule files' text held in memory decides as the files" do
    {:ok, from_text} =
      Permc.load_text(
        File.read!(Path.join(@repo, "examples/permissions.json")),
        File.read!(Path.join(@repo, "examples/autonomy.json"))
      )

    p = examples_policy()

    for c <- cases(), String.starts_with?(c["name"], "examples/") do
      assert Permc.decide(from_text, c["request"]) == Permc.decide(p, c["request"])
    end

    assert {:error, [%{check: "invalid-json", file: "autonomy.json"} | _]} =
             Permc.load_text(~s({"allow": []}), "{")

    assert {:error, %{code: :invalid_argument}} = Permc.load_text(42)
  end

  test "permc.toml's [[command]] rows: from a path and from text; a malformed row rejects" do
    perms = ~s<{"allow": ["Terminal(./deploy.sh)", "Terminal(./other.sh)"]}>
    config = ~s<[[command]]\nname = "./deploy.sh"\neffects = ["external"]\n>

    req = fn cmd ->
      %{
        "action" => %{"type" => "terminal", "command" => cmd},
        "context" => %{"role" => "developer", "executionMode" => "runner", "projectScopeRoot" => "/p"}
      }
    end

    dir = Path.join(System.tmp_dir!(), "permc-nif-rows-#{System.unique_integer([:positive])}")
    File.mkdir_p!(dir)
    File.write!(Path.join(dir, "permissions.json"), perms)
    File.write!(Path.join(dir, "permc.toml"), config)
    {:ok, from_path} = Permc.load(Path.join(dir, "permissions.json"), nil, config: Path.join(dir, "permc.toml"))
    {:ok, from_text} = Permc.load_text(perms, nil, config_text: config)

    for p <- [from_path, from_text] do
      assert {:ok, %{policy: :require_approval, reason: :"ceiling.external_effect", message: m}} =
               Permc.decide(p, req.("./deploy.sh prod"))

      assert m =~ "`./deploy.sh` has an effect outside the machine (permc.toml)"
      assert {:ok, %{policy: :auto_approve}} = Permc.decide(p, req.("./other.sh prod"))
    end

    {:ok, without} = Permc.load(Path.join(dir, "permissions.json"))
    assert {:ok, %{policy: :auto_approve}} = Permc.decide(without, req.("./deploy.sh"))

    assert {:error, [%{check: "invalid-command", file: "permc.toml", line: 3} | _]} =
             Permc.load_text(perms, nil, config_text: ~s<[[command]]\nname = "x"\nefects = []\n>)
  end

  test "a rejected rule file: every error, with file, line, column, check and message" do
    dir = Path.join(System.tmp_dir!(), "permc-nif-#{System.unique_integer([:positive])}")
    File.mkdir_p!(dir)
    perms = Path.join(dir, "permissions.json")
    File.write!(perms, ~s<{"allow": ["Terminal(pnpm test", "Nope(x)"],\n "deny": 3}>)
    assert {:error, diags} = Permc.load(perms, nil)
    assert length(diags) >= 2

    for d <- diags do
      assert %{file: ^perms, line: l, column: c, check: check, message: m, severity: "error"} = d
      assert is_integer(l) and is_integer(c) and is_binary(check) and is_binary(m)
    end

    auto = Path.join(dir, "autonomy.json")
    File.write!(auto, ~s<{"dev-api": {"terminal": "maybe"}}>)
    File.write!(perms, ~s<{"allow": []}>)
    assert {:error, [%{file: ^auto} | _]} = Permc.load(perms, auto)
    File.write!(perms, "{not json")
    assert {:error, [%{check: _, line: 1} | _]} = Permc.load(perms, nil)
    assert {:error, [%{check: "unreadable-file"}]} = Permc.load(Path.join(dir, "missing.json"), nil)
    assert {:error, %{code: :invalid_argument}} = Permc.load(42, nil)
    assert {:error, %{code: :invalid_argument}} = Permc.load(perms, :nope)
  end

  # The keys of a diagnostic of `permc check --format json`.
  # Elixir's keys are snake_case, as a decision's; `endLine` and
  # `endColumn` stay beside them for one release, deprecated.
  @diagnostic_keys [:check, :column, :endColumn, :endLine, :end_column, :end_line, :file, :help, :line, :message, :related, :severity]

  test "load errors are diagnostics in the shape of `permc check --format json`" do
    permc = System.get_env("PERMC") || Path.join(@repo, "target/debug/permc")
    dir = Path.join(System.tmp_dir!(), "permc-nif-#{System.unique_integer([:positive])}")
    File.mkdir_p!(dir)
    missing = Path.join(dir, "missing.json")

    # An unreadable file: check's `unreadable-file` finding, exactly.
    {json, 2} = System.cmd(permc, ["check", "--format", "json", missing])
    help = "check the path and its permissions; the other files are checked"
    assert json =~ ~s("check": "unreadable-file")
    assert json =~ ~s("help": "#{help}")

    want = %{
      check: "unreadable-file",
      severity: "error",
      file: missing,
      line: nil,
      column: nil,
      endLine: nil,
      endColumn: nil,
      end_line: nil,
      end_column: nil,
      message: "cannot read #{missing}: No such file or directory (os error 2)",
      help: help,
      related: []
    }

    assert json =~ ~s("message": "#{want.message}")
    assert {:error, [^want]} = Permc.load(missing, nil)
    assert {:error, [^want]} = Permc.load(Path.join(@repo, "examples/permissions.json"), missing)
    assert {:error, [^want]} = Permc.load_artifact(missing)

    # A rejected file and a corrupt artifact: the same keys.
    perms = Path.join(dir, "permissions.json")
    File.write!(perms, ~s<{"allow": ["Terminal(pnpm test", "Nope(x)"],\n "deny": 3}>)
    assert {:error, diags} = Permc.load(perms, nil)
    assert {:error, [artifact]} = Permc.load_artifact(perms)

    for d <- [artifact | diags] do
      assert d |> Map.keys() |> Enum.sort() == @diagnostic_keys
      assert is_list(d.related)
    end

    File.rm_rf!(dir)
  end

  test "bad requests are errors naming the field, never decisions" do
    p = examples_policy()
    err = fn r -> assert {:error, %{code: code, message: m}} = Permc.decide(p, r); assert is_binary(m); code end

    assert err.(put_in(@base, ["context", "executonMode"], "runner")) == :unknown_field
    assert err.(put_in(@base, ["action", "shell"], "bash")) == :unknown_field
    assert err.(Map.put(@base, "extra", 1)) == :unknown_field
    # `:context` and `"context"`: the same key given twice.
    assert err.(Map.put(@base, :context, @base["context"])) == :duplicate_key
    assert err.(put_in(@base, ["context", :role], "owner")) == :duplicate_key
    assert err.(put_in(@base, ["action", "type"], "teleport")) == :unknown_type
    assert err.(put_in(@base, ["context", "role"], "god")) == :unknown_role
    assert err.(Map.delete(@base, "context")) == :missing_field
    assert err.(%{}) == :missing_field
    assert err.(put_in(@base, ["context", "containerRunning"], "yes")) == :invalid_field
    assert err.(put_in(@base, ["context", "projectScopeRoot"], "relative")) == :invalid_field
    assert err.("a string") == :invalid_request
    assert err.([1, 2]) == :invalid_request
    assert {:error, %{code: :invalid_argument}} = Permc.decide(:not_a_policy, @base)
    assert {:error, %{code: :invalid_argument}} = Permc.explain(make_ref(), @base)
    # Atoms stand for strings; nil for null.
    assert {:ok, %{policy: :auto_approve}} = Permc.decide(p, put_in(@base, ["action", "type"], :terminal))
  end

  test "a term with no JSON form is named by its path in the request" do
    p = examples_policy()
    msg = fn req -> elem(Permc.decide(p, req), 1).message end
    assert msg.(put_in(@base, ["action", "command"], self())) ==
             "`action.command` is a pid, which has no JSON form"
    assert msg.(put_in(@base, ["context", "role"], ["developer", {:x}])) ==
             "`context.role.1` is a tuple, which has no JSON form"
    assert msg.(put_in(@base, ["action", "cwd"], <<255>>)) == "`action.cwd` is not valid UTF-8"
    assert msg.(Map.put(@base, "action", %{1 => 2})) ==
             "`action` has a key that is neither: keys are strings or atoms"
    assert msg.(make_ref()) == "the request is a reference, which has no JSON form"
    assert msg.(Enum.reduce(1..200, %{}, fn _, acc -> %{"a" => acc} end)) ==
             "the request nests deeper than 128 levels"
  end

  defp hostile do
    big = String.duplicate("a", 10_000_000)
    deep = deep_map()
    deep_list = deep_list()

    [
      self(),
      fn -> :ok end,
      &String.length/1,
      make_ref(),
      {"pnpm", "test"},
      {},
      <<255, 254, 0>>,
      "pnpm test" <> <<0xC3>>,
      <<1::size(3)>>,
      big,
      "pnpm test " <> big,
      deep,
      deep_list,
      [?p, ?n, ?p, ?m],
      [1 | 2],
      123_456_789_012_345_678_901_234_567_890,
      -1,
      1.5,
      :auto_approve,
      true,
      nil,
      %{},
      [],
      %{1 => 2},
      %{{:a} => "b"},
      Port.list() |> List.first()
    ]
  end

  defp no_json_form?(h) do
    is_pid(h) or is_function(h) or is_reference(h) or is_tuple(h) or is_port(h) or
      (is_bitstring(h) and not String.valid?(h)) or
      (is_list(h) and h != [] and not is_list(tl(h))) or
      (is_integer(h) and abs(h) > 18_446_744_073_709_551_615) or
      h == deep_map() or h == deep_list() or
      (is_map(h) and Enum.any?(Map.keys(h), &(not is_binary(&1) and not is_atom(&1))))
  end

  defp deep_list, do: Enum.reduce(1..10_000, [], fn _, acc -> [acc] end)
  defp deep_map, do: Enum.reduce(1..10_000, %{}, fn _, acc -> %{"a" => acc} end)

  # Thousands of hostile maps, each checked by a pure-Elixir helper: on a
  # loaded 2-core machine (load 17) that helper alone passed ExUnit's
  # default 60 s.
  @tag timeout: 600_000
  test "hostile terms in every field never crash the VM and never yield auto_approve" do
    p = examples_policy()

    paths = [
      ["action"],
      ["action", "type"],
      ["action", "command"],
      ["action", "cwd"],
      ["action", "agent"],
      ["action", "targetBranch"],
      ["context"],
      ["context", "role"],
      ["context", "executionMode"],
      ["context", "containerRunning"],
      ["context", "projectScopeRoot"],
      ["id"]
    ]

    # A request this policy would approve, so a hostile field that were
    # ignored would show as auto_approve.
    base = put_in(@base, ["action", "command"], "ls")
    assert {:ok, %{policy: :auto_approve}} = Permc.decide(p, base)

    for path <- paths, h <- hostile() do
      r = put_in(base, path, h)

      for f <- [&Permc.decide/2, &Permc.explain/2, &Permc.always/2] do
        out = f.(p, r)
        what = "#{inspect(path)} = #{inspect(h, limit: 3, printable_limit: 20)}: #{inspect(out, limit: 5, printable_limit: 80)}"

        if no_json_form?(h) do
          # Whatever the field, such a request cannot be read.
          assert match?({:error, %{code: _, message: _}}, out), what
        else
          # A string, an atom (read as its name) or nil (null, as absent)
          # may be a valid reading; any other type in a known field is
          # refused, and nothing is approved by it.
          refute match?(%{policy: :auto_approve}, out) and
                   not (is_binary(h) or is_atom(h) or path in [["id"], ["action", "targetBranch"]]),
                 what
        end
      end
    end

    for h <- hostile() do
      out = Permc.decide(p, h)
      assert match?({:error, %{code: _}}, out)
      t = Permc.tokens(h)
      assert is_map(t) or match?({:error, _}, t)
    end

    # The VM is still here, and still decides.
    assert {:ok, %{policy: :auto_approve}} = Permc.decide(p, base)
  end

  test "the common request matched in Elixir answers as its map read by the NIF, for every value in every field" do
    # Permc.common/1 passes the values of an atom-key request of the usual
    # shape to the NIF as a tuple; Permc.Native.decide/2 reads the map.
    # Every hostile value in every field: the same answer by both, through
    # decide/2, decide_many/2 and decide_brief/2.
    p = examples_policy()
    base = atomize(put_in(@base, ["action", "command"], "ls"))
    full = put_in(base, [:action, :cwd], "/p") |> put_in([:action, :agent], "dev") |> put_in([:context, :executionMode], "runner") |> put_in([:context, :containerRunning], false)
    fields = [[:action, :type], [:action, :command], [:action, :cwd], [:action, :agent], [:context, :role], [:context, :executionMode], [:context, :containerRunning], [:context, :projectScopeRoot]]
    by_map = fn r -> Permc.answer(Permc.Native.decide(p, r)) end
    brief = fn
      {:ok, %{policy: x, reason: y}} -> {:ok, x, y}
      e -> e
    end

    requests =
      for r <- [base, full], path <- fields, h <- hostile() ++ [nil, :terminal, :developer, :runner, true, "x"] do
        put_in(r, path, h)
      end

    common = Enum.filter(requests, &Permc.common/1)
    assert length(common) > 100

    for r <- requests, byte_size(:erlang.term_to_binary(r)) < 2_000 do
      want = by_map.(r)
      assert Permc.decide(p, r) == want, inspect(r, limit: 5, printable_limit: 40)
      assert Permc.decide_brief(p, r) == brief.(want)
    end

    light = Enum.filter(requests, &(byte_size(:erlang.term_to_binary(&1)) < 2_000))
    assert Permc.decide_many(p, light) == Enum.map(light, by_map)
    # A heavy one among them: decided on a dirty scheduler, it and the rest.
    heavy = put_in(full, [:action, :command], String.duplicate("a=$b ", 2_000))
    assert Permc.Native.decide_common(p, Permc.common(heavy)) == :dirty
    mixed = Enum.take(light, 70) ++ [heavy] ++ Enum.take(light, 70)
    assert Permc.decide_many(p, mixed) == Enum.map(mixed, &Permc.decide(p, &1))

    # A tuple shaped as the values' tuple is a request like any other
    # term: refused, by each call.
    forged = Permc.common(full) |> put_elem(2, "rm -rf /")
    assert {:error, %{code: _}} = Permc.decide(p, forged)
    assert [{:error, %{code: _}}, {:ok, _}] = Permc.decide_many(p, [forged, full])
    assert {:error, %{code: _}} = Permc.decide_brief(p, forged)
  end

  test "a string where permc expects a string: a huge command and invalid UTF-8 are read, not approved" do
    p = examples_policy()
    assert {:ok, %{policy: pol}} = Permc.decide(p, put_in(@base, ["action", "command"], "ls " <> String.duplicate("x", 5_000_000)))
    assert pol in [:auto_approve, :require_approval, :deny]
    assert {:error, %{code: :invalid_json}} = Permc.decide(p, put_in(@base, ["action", "command"], "ls " <> <<0xFF>>))
  end

  # Issue 33, 2 and 4: a large request (a 256 KiB command, a 20k-key id)
  # paused the caller's scheduler for ~1 s; it is now sent to a dirty CPU
  # scheduler (the NIF's `decide` says `:dirty`), a small one is decided
  # inline, and one over 16 MiB is refused. A ticker process records its
  # longest pause while large requests are decided (printed: a figure,
  # not an assertion on a shared machine).
  test "a large request is decided on a dirty scheduler, a small one inline, a huge one refused" do
    p = examples_policy()
    long = put_in(@base, ["action", "command"], String.duplicate("a=$b ", 52_000))
    keys = Map.new(1..20_000, fn i -> {"k#{i}", i} end)
    wide = Map.put(@base, "id", keys)
    assert Permc.Native.decide(p, long) == :dirty
    assert Permc.Native.decide(p, wide) == :dirty
    assert {:ok, %{policy: pol}} = Permc.decide(p, long)
    assert pol != :auto_approve
    assert {:ok, %{policy: _, id: ^keys}} = Permc.decide(p, wide)
    assert {:ok, %{policy: _}} = Permc.answer(Permc.Native.decide(p, @base))

    huge = put_in(@base, ["action", "command"], String.duplicate("a|", 8_400_000))
    assert {:error, %{code: :request_too_large, message: m}} = Permc.decide(p, huge)
    assert byte_size(m) < 200
    assert {:error, %{code: :request_too_large}} = Permc.explain(p, huge)

    parent = self()
    ticker = spawn(fn -> tick(parent, System.monotonic_time(:microsecond), 0) end)
    for _ <- 1..5, do: Permc.decide(p, long)
    send(ticker, :stop)
    assert_receive {:longest_pause_us, us}, 5_000
    IO.puts("longest ticker pause while deciding 256 KiB commands: #{us} µs")
  end

  defp tick(parent, last, longest) do
    receive do
      :stop -> send(parent, {:longest_pause_us, longest})
    after
      0 ->
        now = System.monotonic_time(:microsecond)
        tick(parent, now, max(longest, now - last))
    end
  end

  # Issue 33, 12: a panic inside permc is returned, not printed with a
  # Rust backtrace on the VM's stderr.
  test "a panic inside the NIF prints nothing on stderr" do
    nif = Path.join(:code.priv_dir(:permc), "libpermc_nif")
    lib = Path.expand("../lib/permc.ex", __DIR__)
    code = ~s|Code.require_file("#{lib}"); IO.inspect(Permc.Native.panic_for_test())|
    {out, 0} = System.cmd("elixir", ["-e", code], env: [{"PERMC_NIF", nif}], stderr_to_stdout: true)
    assert out =~ ":panic"
    refute out =~ "panicked at"
  end

  test "a panic inside the NIF comes back as {:error, …}" do
    assert {:error, %{code: :panic, message: m}} = Permc.Native.panic_for_test()
    assert m =~ "panicked"
    assert {:ok, %{policy: _}} = Permc.decide(examples_policy(), @base)
  end

  test "1,000 processes decide concurrently on one policy, each answer as permc decide's" do
    p = examples_policy()
    examples = Enum.filter(cases(), &String.starts_with?(&1["name"], "examples/"))

    1..1_000
    |> Enum.map(fn i ->
      Task.async(fn ->
        for c <- Enum.drop(examples, rem(i, length(examples))) ++ examples do
          as_cli(Permc.decide(p, c["request"])) == expected(c["answer"]) || {:mismatch, c["name"]}
        end
      end)
    end)
    |> Task.await_many(120_000)
    |> List.flatten()
    |> Enum.each(fn ok -> assert ok == true end)
  end

  test "explain, tokens and always give what the CLI prints" do
    p = examples_policy()
    text = Permc.explain(p, @base)
    assert text =~ "decision: auto_approve (file.allow)"
    assert %{unparsed: false, segments: [%{words: ["cat", "x"], redirects: [%{op: "2>", target: "/dev/null"}], nested: false}]} =
             Permc.tokens("cat x 2>/dev/null")
    assert %{unparsed: true, why: [%{condition: _, offset: _} | _]} = Permc.tokens("select f in a; do echo $f; done")
    assert %{outcome: "patterns", patterns: [_ | _]} = Permc.always(p, @base |> put_in(["action", "command"], "pnpm lint --fix") |> update_in(["action"], &Map.delete(&1, "agent")))
    assert %{outcome: "refused", reason: "teto_do_sempre_permitir"} = Permc.always(p, put_in(@base, ["action", "command"], "git push"))
    assert {:error, %{code: :unknown_field}} = Permc.always(p, Map.put(@base, "x", 1))
  end

  test "the Elixir snippet of docs/bindings.md runs" do
    page = File.read!(Path.join(@repo, "docs/bindings.md"))
    [_, section] = String.split(page, "## Elixir\n", parts: 2)
    [_, code | _] = String.split(section, ~r/^```elixir\n|^```$/m)
    File.cd!(@repo, fn -> Code.eval_string(code) end)
  end
end
