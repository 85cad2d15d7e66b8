defmodule Permc do
  @moduledoc """
  permc in process: the policy compiler's decisions from Elixir, through a
  NIF over the library the `permc` CLI calls (same answers, byte for byte).

      {:ok, policy} = Permc.load("permissions.json", "autonomy.json")
      {:ok, %{policy: :auto_approve, reason: :"file.allow"}} =
        Permc.decide(policy, %{
          action: %{type: "terminal", command: "pnpm test"},
          context: %{role: "developer", projectScopeRoot: "/home/ana/p"}
        })

  A policy is immutable and can be shared by any number of processes.
  Requests are maps with atom or string keys in the shape of SPEC §10.1,
  read as strictly as the CLI reads JSON: an unknown field, a key given
  twice (`:role` and `"role"`) or a value of the wrong type answers
  `{:error, %{code: code, message: message}}`, never a decision.
  """

  @typedoc "A loaded policy (a NIF resource)."
  @opaque policy :: reference()

  @typedoc "A diagnostic, as `permc check --format json` gives it."
  @type diagnostic :: %{
          required(:check) => String.t(),
          required(:severity) => String.t(),
          required(:file) => String.t(),
          required(:line) => pos_integer() | nil,
          required(:column) => pos_integer() | nil,
          required(:message) => String.t(),
          optional(atom()) => term()
        }

  @type request_error :: {:error, %{code: atom(), message: String.t()}}

  @doc """
  Loads and compiles permissions.json and autonomy.json (on a dirty CPU
  scheduler). `config:` is the path of the project config, permc.toml,
  whose `[[command]]` rows describe the project's own tools
  (docs/commands.md, "Project rows"); a row in error rejects the load.
  """
  @spec load(Path.t(), Path.t() | nil, keyword) :: {:ok, policy} | {:error, [diagnostic]}
  def load(permissions_path, autonomy_path \\ nil, opts \\ []) do
    Permc.Native.load(path(permissions_path), path(autonomy_path), path(opts[:config]))
  end

  @doc "Loads an artifact written by `permc compile` (on a dirty CPU scheduler)."
  @spec load_artifact(Path.t()) :: {:ok, policy} | {:error, [diagnostic]}
  def load_artifact(path), do: Permc.Native.load_artifact(path(path))

  @doc """
  Watches permissions.json and autonomy.json: starts a `Permc.Watcher`
  (linked to the caller) whose policy is swapped atomically when the files
  change and kept when they are broken, with a message to `notify:` (the
  caller by default) for each reload or rejection. `interval:` is the
  polling period in ms (default 500); `config:` a permc.toml whose
  `[[command]]` rows are read on every load and watched with the files.
  `{:error, diagnostics}` when the files cannot be loaded now.
  """
  @spec watch(Path.t(), Path.t() | nil, keyword) :: {:ok, pid} | {:error, term}
  def watch(permissions, autonomy \\ nil, opts \\ []) do
    opts = Keyword.put_new(opts, :notify, self())

    case Permc.Watcher.start_link({path(permissions), path(autonomy), opts}) do
      {:ok, pid} -> {:ok, pid}
      {:error, {:rejected, diagnostics}} -> {:error, diagnostics}
      other -> other
    end
  end

  @doc """
  Compiles rule files held in memory: permissions.json's and
  autonomy.json's text (binaries), read as `load/3` reads the files, and
  `config_text:` permc.toml's; diagnostics name them `permissions.json`,
  `autonomy.json` and `permc.toml`.
  """
  @spec load_text(binary, binary | nil, keyword) :: {:ok, policy} | {:error, [diagnostic]}
  def load_text(permissions_text, autonomy_text \\ nil, opts \\ []) do
    Permc.Native.load_text(permissions_text, autonomy_text, opts[:config_text])
  end

  @doc "Loads an artifact's bytes held in memory, as `load_artifact/1` loads its file."
  @spec load_artifact_bytes(binary) :: {:ok, policy} | {:error, [diagnostic]}
  def load_artifact_bytes(bytes), do: Permc.Native.load_artifact_bytes(bytes)

  @typedoc """
  SPEC §10.2's decision with snake_case atom keys. `policy` and `reason`
  are both atoms (`:auto_approve`, `:"file.allow"`): both are closed sets
  of names, so they are matched on as atoms and never leak atoms.
  """
  @type decision :: %{
          required(:policy) => :auto_approve | :require_approval | :deny,
          required(:reason) => atom(),
          required(:message) => String.t(),
          optional(:rule) => String.t(),
          optional(:source) => String.t(),
          optional(:autonomy_origin) => String.t(),
          optional(:scope_root) => String.t(),
          optional(:id) => term()
        }

  @doc """
  Decides a request: `{:ok, decision}` (SPEC §10.2, `t:decision/0`), or
  `{:error, %{code: …, message: …}}` when the request cannot be read.

  A small request is decided on the caller's scheduler; a large one (a
  long command, a big `id`: more than a millisecond's work) on a dirty
  CPU scheduler, so it never pauses the other processes. A request over
  16 MiB is `{:error, %{code: :request_too_large}}`.
  """
  @spec decide(policy, map) :: {:ok, decision} | request_error
  def decide(policy, request) do
    case common(request) do
      nil ->
        decide_map(policy, request)

      fields ->
        case Permc.Native.decide_common(policy, fields) do
          :dirty -> decide_map(policy, request)
          answer -> answer(answer)
        end
    end
  end

  # The common request — atom keys, an action of the usual fields, a
  # context of the usual fields — matched here, each map's keys in one
  # pass (the VM's map match), and its values given to the NIF as one
  # tuple, `{request, type, command, cwd, agent, target_branch, role,
  # execution_mode, container_running, project_scope_root}` (an absent
  # field nil), which it reads in place where it looked each key up in
  # the maps (ten `enif_get_map_value` calls). The NIF reads the values
  # as it reads the maps' (a value of another type: the request map, the
  # tuple's first element, is read as any other, for the CLI's error).
  # nil for any other request: the NIF reads the map.
  @doc false
  def common(%{action: a, context: c} = r) when map_size(r) == 2 and is_map(a) and is_map(c),
    do: common_action(r, a, c)

  def common(_), do: nil

  defp common_action(r, %{type: t, command: x, cwd: w, agent: g} = a, c) when map_size(a) == 4,
    do: common_context(r, c, t, x, w, g, nil)

  defp common_action(r, %{type: t, command: x, cwd: w} = a, c) when map_size(a) == 3,
    do: common_context(r, c, t, x, w, nil, nil)

  defp common_action(r, %{type: t, command: x, agent: g} = a, c) when map_size(a) == 3,
    do: common_context(r, c, t, x, nil, g, nil)

  defp common_action(r, %{type: t, command: x} = a, c) when map_size(a) == 2,
    do: common_context(r, c, t, x, nil, nil, nil)

  defp common_action(_, _, _), do: nil

  defp common_context(r, %{role: o, executionMode: m, containerRunning: k, projectScopeRoot: p} = c, t, x, w, g, b)
       when map_size(c) == 4,
       do: {r, t, x, w, g, b, o, m, k, p}

  defp common_context(r, %{role: o, executionMode: m, projectScopeRoot: p} = c, t, x, w, g, b)
       when map_size(c) == 3,
       do: {r, t, x, w, g, b, o, m, nil, p}

  defp common_context(r, %{role: o, projectScopeRoot: p} = c, t, x, w, g, b) when map_size(c) == 2,
    do: {r, t, x, w, g, b, o, nil, nil, p}

  defp common_context(_, _, _, _, _, _, _), do: nil

  defp decide_map(policy, request) do
    case Permc.Native.decide(policy, request) do
      :dirty ->
        case Permc.Native.decide_dirty(policy, request) do
          # Nested too deep for a dirty scheduler's stack.
          :inline -> answer(Permc.Native.decide_inline(policy, request))
          answer -> answer(answer)
        end

      answer ->
        answer(answer)
    end
  end

  # The NIF answers a decision as a tuple of its fields, `{policy, reason,
  # message, rule, source, autonomy_origin, scope_root}` (an absent one
  # nil, the origin an atom), and the map is made here: a map written with
  # its keys shares one keys tuple, a literal, where a map made by the NIF
  # gets a new one, sorted, each call. `{:ok, map}` (a request with an
  # `id`) and errors pass as they are.
  @doc false
  def answer({p, r, m, nil, nil, nil, nil}), do: {:ok, %{policy: p, reason: r, message: m}}

  def answer({p, r, m, nil, nil, nil, root}),
    do: {:ok, %{policy: p, reason: r, message: m, scope_root: root}}

  def answer({p, r, m, nil, nil, o, nil}),
    do: {:ok, %{policy: p, reason: r, message: m, autonomy_origin: origin(o)}}

  def answer({p, r, m, nil, nil, o, root}),
    do: {:ok, %{policy: p, reason: r, message: m, autonomy_origin: origin(o), scope_root: root}}

  def answer({p, r, m, rule, source, nil, nil}),
    do: {:ok, %{policy: p, reason: r, message: m, rule: rule, source: source}}

  def answer({p, r, m, rule, source, nil, root}),
    do: {:ok, %{policy: p, reason: r, message: m, rule: rule, source: source, scope_root: root}}

  def answer({p, r, m, rule, source, o, nil}),
    do: {:ok, %{policy: p, reason: r, message: m, rule: rule, source: source, autonomy_origin: origin(o)}}

  def answer({p, r, m, rule, source, o, root}),
    do:
      {:ok,
       %{
         policy: p,
         reason: r,
         message: m,
         rule: rule,
         source: source,
         autonomy_origin: origin(o),
         scope_root: root
       }}

  def answer(other), do: other

  # Literals: no binary made per answer.
  defp origin(:specific), do: "specific"
  defp origin(:wildcard), do: "wildcard"

  defp answers(list), do: :lists.map(&answer/1, list)

  # The longest list decided a slice at a time on the caller's scheduler.
  @many_inline 4096

  @doc """
  Decides many requests in one call: a list of requests (maps, as
  `decide/2` takes them, or JSON lines, as `decide_json/2` takes them) in,
  the list of their answers out, each in its request's slot: `{:ok,
  decision}` or `{:error, %{code: …, message: …}}`, exactly as the single
  calls answer it. `{:error, %{code: :invalid_argument}}` when `requests`
  is not a proper list.

  Light requests are decided on the caller's scheduler, half a millisecond a NIF call,
  each call reporting its time to the scheduler; a list longer than 4,096,
  or the rest of a list from a heavy request on (a long command, a big
  `id`), on a dirty CPU scheduler, so it never pauses the other processes.
  """
  @spec decide_many(policy, [map | binary]) :: [{:ok, decision} | request_error] | request_error
  def decide_many(policy, requests) when is_list(requests) do
    if longer?(requests, @many_inline),
      do: joined([], many_dirty(policy, requests)),
      else: many(policy, requests)
  end

  # Is the list longer than `n`? (At most n + 1 cells walked; an improper
  # list is left to the NIF, which says so.)
  defp longer?(_, 0), do: true
  defp longer?([_ | t], n), do: longer?(t, n - 1)
  defp longer?(_, _), do: false

  # The list as the NIF's decide_many takes it: the common request as its
  # values (common/1), a map or a binary as it is, anything else in a
  # tuple of one (never taken for the values' tuple).
  defp many(policy, requests) do
    case passed(requests, []) do
      # The NIF answers its error (no answer of the list is returned).
      :improper -> many_slices(policy, requests)
      list -> many_slices(policy, list)
    end
  end

  defp passed([r | rest], acc) when is_binary(r), do: passed(rest, [r | acc])

  defp passed([r | rest], acc) do
    case common(r) do
      nil when is_map(r) -> passed(rest, [r | acc])
      nil -> passed(rest, [{r} | acc])
      fields -> passed(rest, [fields | acc])
    end
  end

  defp passed([], acc), do: :lists.reverse(acc)
  defp passed(_, _), do: :improper

  # Each slice's answers made onto the rest's (no list appended; a
  # slice's error is the whole call's).
  defp many_slices(policy, requests) do
    case Permc.Native.decide_many(policy, requests) do
      answers when is_list(answers) -> answers(answers)
      {:more, answers, rest} -> onto(answers, many_slices(policy, rest))
      {:dirty, answers, rest} -> onto(answers, many_dirty(policy, unpassed(rest)))
      :dirty -> many_dirty(policy, unpassed(requests))
      {:error, _} = e -> e
    end
  end

  defp onto(_answers, {:error, _} = e), do: e
  defp onto(answers, rest), do: answers_onto(answers, rest)

  defp answers_onto([a | more], rest), do: [answer(a) | answers_onto(more, rest)]
  defp answers_onto([], rest), do: rest

  # The requests as the caller gave them, for the dirty call.
  defp unpassed(list), do: :lists.map(&unpassed_one/1, list)
  defp unpassed_one({r, _, _, _, _, _, _, _, _, _}), do: r
  defp unpassed_one({r}), do: r
  defp unpassed_one(r), do: r

  defp joined(_done, {:error, _} = e), do: e
  defp joined(done, last), do: :lists.append(:lists.reverse([last | done]))

  defp many_dirty(policy, requests) do
    case Permc.Native.decide_many_dirty(policy, requests) do
      # Some requests nest too deep for a dirty scheduler's stack: those
      # slots are decided one by one, as decide/2 does.
      {:inline, answers} ->
        Enum.zip_with(answers, requests, fn
          :inline, request -> decide(policy, request)
          answer, _ -> answer(answer)
        end)

      answers when is_list(answers) ->
        answers(answers)

      error ->
        error
    end
  end

  @doc """
  The policy and reason of a request's decision alone, for a hot path
  that needs nothing else: `{:ok, policy, reason}` (both atoms, as in
  `decide/2`'s map) or `decide/2`'s error. The compiled engine does not
  build the decision's strings (rule, source, scope root, message) for
  it. The common request (known fields, strings) is answered by the NIF
  itself; any other through `decide/2`.
  """
  @spec decide_brief(policy, map) :: {:ok, atom, atom} | request_error
  def decide_brief(policy, request) do
    brief =
      case common(request) do
        nil -> Permc.Native.decide_brief(policy, request)
        fields -> Permc.Native.decide_brief_common(policy, fields)
      end

    case brief do
      :full ->
        with {:ok, %{policy: p, reason: r}} <- decide(policy, request), do: {:ok, p, r}

      answer ->
        answer
    end
  end

  @doc "As `decide/2`, returning the decision or raising `Permc.Error`."
  @spec decide!(policy, map) :: decision
  def decide!(policy, request), do: policy |> decide(request) |> bang()

  # A line longer than this is decided on a dirty CPU scheduler.
  @json_inline 64 * 1024

  @doc """
  Decides a request given as one line of JSON text (SPEC §10.1), read by
  the CLI's reader: for engines that hold requests as JSON. Returns as
  `decide/2` (an `id` in the line is echoed in the decision).
  """
  @spec decide_json(policy, binary) :: {:ok, decision} | request_error
  def decide_json(policy, line) when is_binary(line) and byte_size(line) > @json_inline,
    do: answer(Permc.Native.decide_json_dirty(policy, line))

  def decide_json(policy, line), do: answer(Permc.Native.decide_json(policy, line))

  @doc "As `decide_json/2`, returning the decision or raising `Permc.Error`."
  @spec decide_json!(policy, binary) :: decision
  def decide_json!(policy, line), do: policy |> decide_json(line) |> bang()

  defp bang({:ok, d}), do: d
  defp bang({:error, %{code: code, message: message}}), do: raise(Permc.Error, code: code, message: message)

  @doc "The decision with every step that ran, as `permc explain` prints it."
  @spec explain(policy, map) :: String.t() | request_error
  def explain(policy, request), do: Permc.Native.explain(policy, request)

  @doc """
  `permc explain --format json` as data: `{:ok, map}` with snake_case atom
  keys — `action`, `context`, `segments` and `unparsed` (with a command),
  `steps` (every step of SPEC §5.3 that ran: `%{step: "1. IAM", outcome:
  "…"}`), `decision` (as `decide/2` gives it) and `engines_agree`.
  """
  @spec explain_data(policy, map) :: {:ok, map} | request_error
  def explain_data(policy, request), do: Permc.Native.explain_data(policy, request)

  @doc "A command line's words and segments (SPEC §4), as `permc tokens` prints them."
  @spec tokens(String.t()) :: map | {:error, map}
  def tokens(command), do: Permc.Native.tokens(command)

  @doc """
  What always-allowing the request's action would record (SPEC §7), as
  `permc always` prints it without `--write`: nothing is written.
  """
  @spec always(policy, map) :: map | request_error
  def always(policy, request), do: Permc.Native.always(policy, request)

  # A charlist path is a path too; anything else goes to the NIF, which
  # refuses it.
  defp path(p) when is_list(p), do: List.to_string(p)
  defp path(p), do: p
end

defmodule Permc.Error do
  @moduledoc "Raised by `Permc.decide!/2` and `Permc.decide_json!/2`: `code` is one of docs/error-codes.md's."
  defexception [:code, :message]
end

defmodule Permc.Native do
  @moduledoc false
  @on_load :load_nif

  # PERMC_NIF names the library without its extension; by default
  # libpermc_nif in the application's priv directory, found when the module
  # loads (not fixed at compile time), so it works in a `mix release` and
  # wherever the application was compiled.
  def load_nif do
    path =
      case System.get_env("PERMC_NIF") do
        nil -> priv_nif()
        nif -> String.to_charlist(nif)
      end

    case path && :erlang.load_nif(path, 0) do
      :ok ->
        :ok

      nil ->
        IO.warn("permc: no priv directory for :permc (is the application in the code path?)")
        :abort

      {:error, {reason, text}} ->
        IO.warn("permc: cannot load the NIF #{path}.so (#{reason}: #{text}); `mix compile` builds it with cargo")
        :abort
    end
  end

  defp priv_nif do
    case :code.priv_dir(:permc) do
      {:error, _} -> nil
      dir -> :filename.join(dir, ~c"libpermc_nif")
    end
  end

  def load(_permissions, _autonomy, _config), do: :erlang.nif_error(:nif_not_loaded)
  def load_artifact(_path), do: :erlang.nif_error(:nif_not_loaded)
  def load_text(_permissions, _autonomy, _config), do: :erlang.nif_error(:nif_not_loaded)
  def load_artifact_bytes(_bytes), do: :erlang.nif_error(:nif_not_loaded)
  def decide(_policy, _request), do: :erlang.nif_error(:nif_not_loaded)
  def decide_dirty(_policy, _request), do: :erlang.nif_error(:nif_not_loaded)
  def decide_inline(_policy, _request), do: :erlang.nif_error(:nif_not_loaded)
  def decide_json(_policy, _line), do: :erlang.nif_error(:nif_not_loaded)
  def decide_json_dirty(_policy, _line), do: :erlang.nif_error(:nif_not_loaded)
  def decide_many(_policy, _requests), do: :erlang.nif_error(:nif_not_loaded)
  def decide_brief(_policy, _request), do: :erlang.nif_error(:nif_not_loaded)
  def decide_common(_policy, _fields), do: :erlang.nif_error(:nif_not_loaded)
  def decide_brief_common(_policy, _fields), do: :erlang.nif_error(:nif_not_loaded)
  def decide_many_dirty(_policy, _requests), do: :erlang.nif_error(:nif_not_loaded)
  # For bindings/bench.sh: the in-process work, timed in this process.
  def bench_in_process(_policy, _lines, _n, _mode), do: :erlang.nif_error(:nif_not_loaded)
  def cpu_time_ns(), do: :erlang.nif_error(:nif_not_loaded)
  def explain(_policy, _request), do: :erlang.nif_error(:nif_not_loaded)
  def explain_data(_policy, _request), do: :erlang.nif_error(:nif_not_loaded)
  def always(_policy, _request), do: :erlang.nif_error(:nif_not_loaded)
  def tokens(_command), do: :erlang.nif_error(:nif_not_loaded)
  def panic_for_test(), do: :erlang.nif_error(:nif_not_loaded)
end
