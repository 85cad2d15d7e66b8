# Permc.decide_json/2 (a request as a JSON line) against Permc.decide/2 (a
# map), on the shipped examples' rules, one process:
#   bash bindings/bench.sh --calls      (a release NIF), or
#   cd bindings/elixir && MIX_ENV=prod mix run bench/decide_json.exs
repo = Path.expand("../../..", __DIR__)
{:ok, p} = Permc.load(Path.join(repo, "examples/permissions.json"), Path.join(repo, "examples/autonomy.json"))
root = "/home/ana/projetos/loja-1a2b3c4d"

commands = ["pnpm test", "git status && pnpm test:unit", "cd src && npm run build | tee out.log", "ls -la src"]

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

n = 200_000

time = fn reqs, f ->
  reqs = List.to_tuple(reqs)
  k = tuple_size(reqs)
  run = fn -> Enum.each(1..n, fn i -> {:ok, _} = f.(p, elem(reqs, rem(i, k))) end) end
  run.()
  Enum.map(1..3, fn _ -> elem(:timer.tc(run), 0) end) |> Enum.min()
end

for {name, reqs, f} <- [{"decide/2 (map)", maps, &Permc.decide/2}, {"decide_json/2 (JSON line)", lines, &Permc.decide_json/2}] do
  us = time.(reqs, f)
  IO.puts("#{name}: #{round(n / (us / 1_000_000))} decisions/s (#{Float.round(us / n, 2)} µs each)")
end
