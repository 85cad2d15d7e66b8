# Decisions per second through the NIF (bindings/bench.sh runs this):
#   elixir -r bindings/elixir/lib/permc.ex bindings/elixir/bench/decide.exs DIR
# DIR holds permissions-{10,100000}.json, autonomy.json and
# policy-100000.permc (benches/decide.rs' generated rules).
[dir] = System.argv()

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

requests =
  commands
  |> Enum.map(fn c ->
    %{
      action: %{type: "terminal", command: c, cwd: root, agent: "dev-api"},
      context: %{role: "developer", executionMode: "container", containerRunning: true, projectScopeRoot: root}
    }
  end)
  |> List.to_tuple()

defmodule Bench do
  # `n` decisions, cycling over the requests; the count of answers.
  def loop(_p, _reqs, 0, acc), do: acc

  def loop(p, reqs, n, acc) do
    {:ok, %{policy: _}} = Permc.decide(p, elem(reqs, rem(n, tuple_size(reqs))))
    loop(p, reqs, n - 1, acc + 1)
  end

  def best_us(runs, f), do: Enum.map(1..runs, fn _ -> elem(:timer.tc(f), 0) end) |> Enum.min()
end

n = 400_000
scheds = System.schedulers_online()

for rules <- [10, 100_000] do
  perms = Path.join(dir, "permissions-#{rules}.json")
  auto = Path.join(dir, "autonomy.json")
  load_us = Bench.best_us(3, fn -> {:ok, _} = Permc.load(perms, auto) end)
  {:ok, p} = Permc.load(perms, auto)
  Bench.loop(p, requests, 50_000, 0)
  one = Bench.best_us(3, fn -> Bench.loop(p, requests, n, 0) end)

  all =
    Bench.best_us(3, fn ->
      1..scheds
      |> Enum.map(fn _ -> Task.async(fn -> Bench.loop(p, requests, n, 0) end) end)
      |> Task.await_many(:infinity)
    end)

  IO.puts(
    "Elixir NIF, #{rules} rules: one process #{round(n / one * 1.0e6)} decisions/s (#{Float.round(one / n, 2)} µs each); " <>
      "#{scheds} processes (all schedulers) #{round(n * scheds / all * 1.0e6)} decisions/s; " <>
      "load rule files #{Float.round(load_us / 1000, 2)} ms"
  )
end

art = Path.join(dir, "policy-100000.permc")
# Every load, not only the best: a slow one is what a user meets.
art_ms =
  Enum.map(1..8, fn _ ->
    {t, {:ok, _}} = :timer.tc(fn -> Permc.load_artifact(art) end)
    t / 1000
  end)

IO.puts(
  "Elixir NIF: load the 100k-rule artifact #{Float.round(Enum.min(art_ms), 1)}-#{Float.round(Enum.max(art_ms), 1)} ms (8 loads: " <>
    Enum.map_join(art_ms, " ", &Float.round(&1, 1)) <> ")"
)
