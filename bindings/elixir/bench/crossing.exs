# The NIF's calls against the in-process work on the same input, in one
# run (issue 44; bindings/bench.sh runs this):
#   elixir -r bindings/elixir/lib/permc.ex bindings/elixir/bench/crossing.exs DIR
# DIR holds permissions-{10,100000}.json and autonomy.json
# (benches/decide.rs' generated rules); without DIR, the examples' rules.
#
# For each policy: decide/2 (a map) against the decision from a built
# request with every string built; decide_json/2 against a JSON line in,
# the answer line out; decide_many/2 over 1,000 maps against the same
# in-process decision, and over 1,000 JSON lines against the line in, the
# answer line out; decide_brief/2 (policy and reason alone) against the
# compiled engine's answer without its strings. The in-process figures are timed by the NIF itself
# (Permc.Native.bench_in_process/4: same build, allocator, policy and
# requests). Rounds are interleaved (in-process, then each call) and the
# fastest round of each is kept, so a change of the machine's load
# touches all alike. Each line prints the ratio of CPU times (the VM
# process's: run it with busy-waiting off, as bindings/bench.sh does) and
# of wall times, with the times.
repo = Path.expand("../../..", __DIR__)

policies =
  case System.argv() do
    [dir] ->
      for n <- [10, 100_000],
          do: {"#{n} rules", Path.join(dir, "permissions-#{n}.json"), Path.join(dir, "autonomy.json")}

    [] ->
      [{"the examples' rules", Path.join(repo, "examples/permissions.json"), Path.join(repo, "examples/autonomy.json")}]
  end

commands = [
  "pnpm test",
  "git status && pnpm test:unit",
  "cd src && npm run build | tee out.log",
  "cargo test --workspace",
  "ls -la src",
  "git diff HEAD~1 -- src/main.rs",
  "npm run script42 && echo done",
  "grep -rn TODO src | wc -l"
]

root = "/home/ana/projetos/loja-1a2b3c4d"

maps =
  for c <- commands,
      do: %{
        action: %{type: "terminal", command: c, cwd: root, agent: "dev-api"},
        context: %{role: "developer", executionMode: "container", containerRunning: true, projectScopeRoot: root}
      }

lines =
  for c <- commands,
      do:
        ~s({"action": {"type": "terminal", "command": "#{c}", "cwd": "#{root}", "agent": "dev-api"}, ) <>
          ~s("context": {"role": "developer", "executionMode": "container", "containerRunning": true, "projectScopeRoot": "#{root}"}})

defmodule Crossing do
  # {wall ns, CPU ns} a request of `f`, which runs `n` requests: CPU time is
  # the VM process's (Permc.Native.cpu_time_ns/0), what the work cost on a
  # machine shared with other builds; wall time adds the waits for a core.
  def measure(n, f) do
    c0 = Permc.Native.cpu_time_ns()
    t0 = System.monotonic_time(:nanosecond)
    f.()
    t = System.monotonic_time(:nanosecond) - t0
    {t / n, (Permc.Native.cpu_time_ns() - c0) / n}
  end

  def calls(n, reqs, f) do
    k = tuple_size(reqs)
    measure(n, fn -> loop(n, reqs, k, f) end)
  end

  defp loop(0, _, _, _), do: :ok

  defp loop(i, reqs, k, f) do
    {:ok, _} = f.(elem(reqs, rem(i, k)))
    loop(i - 1, reqs, k, f)
  end

  # decide_many/2 over `batch`, `rounds` times, a request.
  def many(p, batch, rounds) do
    measure(rounds * length(batch), fn ->
      Enum.each(1..rounds, fn _ -> [{:ok, _} | _] = Permc.decide_many(p, batch) end)
    end)
  end

  # mode 0: the decision with its strings; 1: a JSON line in, the answer
  # line out; 2: policy and reason alone (Permc.Native.bench_in_process/4).
  def in_process(p, lines, n, mode) do
    measure(n, fn -> Permc.Native.bench_in_process(p, lines, n, mode) end)
  end

  def brief(n, reqs, p) do
    k = tuple_size(reqs)
    measure(n, fn -> brief_loop(n, reqs, k, p) end)
  end

  defp brief_loop(0, _, _, _), do: :ok

  defp brief_loop(i, reqs, k, p) do
    {:ok, _, _} = Permc.decide_brief(p, elem(reqs, rem(i, k)))
    brief_loop(i - 1, reqs, k, p)
  end

  def fmt(ns), do: "#{:erlang.float_to_binary(ns / 1000, decimals: 2)} µs"
  def x(r), do: "#{:erlang.float_to_binary(r, decimals: 2)}x"

  # The best (lowest) wall and CPU figures of the rounds, and their ratios.
  def line(name, {wall, cpu}, {in_wall, in_cpu}, target) do
    verdict = if cpu / in_cpu <= target, do: "≤ #{target}x", else: "OVER #{target}x"

    IO.puts(
      "  #{String.pad_trailing(name, 38)} CPU #{fmt(cpu)} / in-process #{fmt(in_cpu)} = #{x(cpu / in_cpu)} (#{verdict}); " <>
        "wall #{fmt(wall)} / #{fmt(in_wall)} = #{x(wall / in_wall)}"
    )
  end
end

n = 100_000
rounds = 9
batch = for i <- 0..999, do: Enum.at(maps, rem(i, length(maps)))
batch_lines = for i <- 0..999, do: Enum.at(lines, rem(i, length(lines)))
map_t = List.to_tuple(maps)
line_t = List.to_tuple(lines)

IO.puts("# Elixir NIF against in-process, one process; #{System.schedulers_online()} schedulers; load: #{:os.cmd(~c"cut -d' ' -f1-3 /proc/loadavg") |> to_string() |> String.trim()}")

for {name, perms, auto} <- policies do
  {:ok, p} = Permc.load(perms, auto)
  decide = fn r -> Permc.decide(p, r) end
  decide_json = fn l -> Permc.decide_json(p, l) end
  # Warm up every path once.
  Crossing.calls(20_000, map_t, decide)
  Crossing.calls(20_000, line_t, decide_json)
  Crossing.many(p, batch, 10)

  runs =
    for _ <- 1..rounds do
      %{
        in_decide: Crossing.in_process(p, lines, n, 0),
        decide: Crossing.calls(n, map_t, decide),
        in_json: Crossing.in_process(p, lines, n, 1),
        decide_json: Crossing.calls(n, line_t, decide_json),
        many: Crossing.many(p, batch, div(n, 1000)),
        many_json: Crossing.many(p, batch_lines, div(n, 1000)),
        in_brief: Crossing.in_process(p, lines, n, 2),
        brief: Crossing.brief(n, map_t, p)
      }
    end

  best = fn k ->
    {Enum.min(Enum.map(runs, &elem(&1[k], 0))), Enum.min(Enum.map(runs, &elem(&1[k], 1)))}
  end

  IO.puts("Elixir NIF, #{name} (best of #{rounds} interleaved rounds of #{n}; the target is on CPU time):")
  Crossing.line("decide/2 (a map)", best.(:decide), best.(:in_decide), 2)
  Crossing.line("decide_json/2 (a JSON line)", best.(:decide_json), best.(:in_json), 2)
  Crossing.line("decide_many/2 (1,000 maps), a request", best.(:many), best.(:in_decide), 1.3)
  Crossing.line("decide_many/2 (1,000 JSON lines), each", best.(:many_json), best.(:in_json), 1.3)
  Crossing.line("decide_brief/2 (a map; policy, reason)", best.(:brief), best.(:in_brief), 2)
end
