# The NIF's calls against the in-process work on the same input, in one
# run (issue 44; bindings/bench.sh runs this):
#   elixir -r bindings/elixir/lib/permc.ex bindings/elixir/bench/crossing.exs DIR
# DIR holds permissions-{10,100000}.json and autonomy.json
# (benches/decide.rs' generated rules); without DIR, the examples' rules.
#
# For each policy: decide/2 (a map) against the decision from a built
# request with every string built; decide_json/2 against a JSON line in,
# the answer line out; decide_many/2 over 1,000 maps against the same
# in-process decision. The in-process figures are timed by the NIF itself
# (Permc.Native.bench_in_process/4: same build, allocator, policy and
# requests). Rounds are interleaved (in-process, then each call) and the
# fastest round of each is kept, so a change of the machine's load
# touches all alike; each line prints the ratio and both times.
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
  # ns a call of `f` over `n` requests cycling through `reqs` (a tuple).
  def per_call(n, reqs, f) do
    k = tuple_size(reqs)
    {us, _} = :timer.tc(fn -> loop(n, reqs, k, f) end)
    us * 1000 / n
  end

  defp loop(0, _, _, _), do: :ok

  defp loop(i, reqs, k, f) do
    {:ok, _} = f.(elem(reqs, rem(i, k)))
    loop(i - 1, reqs, k, f)
  end

  # ns a request of decide_many/2 over `batch`, `rounds` times.
  def per_request_many(p, batch, rounds) do
    {us, _} =
      :timer.tc(fn ->
        Enum.each(1..rounds, fn _ -> [{:ok, _} | _] = Permc.decide_many(p, batch) end)
      end)

    us * 1000 / (rounds * length(batch))
  end

  def fmt(ns), do: "#{:erlang.float_to_binary(ns / 1000, decimals: 2)} µs"

  def line(name, ns, base, target) do
    ratio = ns / base
    verdict = if ratio <= target, do: "≤ #{target}x", else: "OVER #{target}x"

    IO.puts(
      "  #{String.pad_trailing(name, 34)} #{fmt(ns)}  in-process #{fmt(base)}  ratio #{:erlang.float_to_binary(ratio, decimals: 2)}x (#{verdict})"
    )
  end
end

n = 200_000
batch = for i <- 0..999, do: Enum.at(maps, rem(i, length(maps)))
map_t = List.to_tuple(maps)
line_t = List.to_tuple(lines)

IO.puts("# Elixir NIF against in-process, one process; #{System.schedulers_online()} schedulers; load: #{:os.cmd(~c"cut -d' ' -f1-3 /proc/loadavg") |> to_string() |> String.trim()}")

for {name, perms, auto} <- policies do
  {:ok, p} = Permc.load(perms, auto)
  decide = fn r -> Permc.decide(p, r) end
  decide_json = fn l -> Permc.decide_json(p, l) end
  # Warm up every path once.
  Crossing.per_call(20_000, map_t, decide)
  Crossing.per_call(20_000, line_t, decide_json)
  Crossing.per_request_many(p, batch, 10)

  rounds =
    for _ <- 1..5 do
      %{
        in_decide: Permc.Native.bench_in_process(p, lines, n, false),
        decide: Crossing.per_call(n, map_t, decide),
        in_json: Permc.Native.bench_in_process(p, lines, n, true),
        decide_json: Crossing.per_call(n, line_t, decide_json),
        many: Crossing.per_request_many(p, batch, div(n, 1000))
      }
    end

  best = fn k -> rounds |> Enum.map(& &1[k]) |> Enum.min() end
  IO.puts("Elixir NIF, #{name} (best of 5 interleaved rounds of #{n}):")
  Crossing.line("decide/2 (a map)", best.(:decide), best.(:in_decide), 2)
  Crossing.line("decide_json/2 (a JSON line)", best.(:decide_json), best.(:in_json), 2)
  Crossing.line("decide_many/2 (1,000 maps), a request", best.(:many), best.(:in_decide), 1.3)
end
