defmodule Permc.Watcher do
  @moduledoc """
  A policy that follows its rule files (`Permc.watch/3`): a process that
  polls permissions.json and autonomy.json and, when they change, loads
  them anew and swaps the policy atomically; broken files keep the last
  good policy, as `permc serve` does.

  Reading the policy (`policy/1`, `decide/2`) costs a `:persistent_term`
  lookup, never a message to this process. Each reload or rejection is
  sent to the subscriber (`notify:`, default the caller of
  `Permc.watch/3`) as `{:permc_watch, watcher, {:reloaded, generation}}`
  or `{:permc_watch, watcher, {:rejected, diagnostics}}`.
  """
  use GenServer

  @doc false
  def start_link(args), do: GenServer.start_link(__MODULE__, args)

  @doc "The policy in force now."
  @spec policy(pid) :: Permc.policy()
  def policy(watcher), do: elem(:persistent_term.get({__MODULE__, watcher}), 0)

  @doc "1 for the first load, one more at each reload."
  @spec generation(pid) :: pos_integer
  def generation(watcher), do: elem(:persistent_term.get({__MODULE__, watcher}), 1)

  @doc "`Permc.decide/2` with the policy in force now."
  def decide(watcher, request), do: Permc.decide(policy(watcher), request)

  @doc "Stops watching."
  def stop(watcher), do: GenServer.stop(watcher)

  @impl true
  def init({permissions, autonomy, opts}) do
    # permc.toml's rows are part of the policy: read on every reload and
    # watched with the rule files.
    config = Keyword.get(opts, :config)
    load_opts = if config, do: [config: config], else: []

    case Permc.load(permissions, autonomy, load_opts) do
      {:ok, policy} ->
        Process.flag(:trap_exit, true)
        :persistent_term.put({__MODULE__, self()}, {policy, 1})
        files = Enum.reject([permissions, autonomy, config], &is_nil/1)

        state = %{
          permissions: permissions,
          autonomy: autonomy,
          load_opts: load_opts,
          files: files,
          seen: Map.new(files, &{&1, fingerprint(&1, nil)}),
          generation: 1,
          interval: Keyword.get(opts, :interval, 500),
          notify: Keyword.fetch!(opts, :notify)
        }

        schedule(state)
        {:ok, state}

      {:error, diagnostics} ->
        {:stop, {:rejected, diagnostics}}
    end
  end

  @impl true
  def handle_info(:poll, state) do
    seen = Map.new(state.files, &{&1, fingerprint(&1, state.seen[&1])})
    state = if seen != state.seen, do: reload(%{state | seen: seen}), else: state
    schedule(state)
    {:noreply, state}
  end

  def handle_info(_, state), do: {:noreply, state}

  @impl true
  def terminate(_, _) do
    :persistent_term.erase({__MODULE__, self()})
  end

  defp reload(state) do
    case Permc.load(state.permissions, state.autonomy, state.load_opts) do
      {:ok, policy} ->
        generation = state.generation + 1
        :persistent_term.put({__MODULE__, self()}, {policy, generation})
        send(state.notify, {:permc_watch, self(), {:reloaded, generation}})
        %{state | generation: generation}

      {:error, diagnostics} ->
        send(state.notify, {:permc_watch, self(), {:rejected, diagnostics}})
        state
    end
  end

  defp schedule(state), do: Process.send_after(self(), :poll, state.interval)

  # A file's stat and its content's hash, the hash read again only when
  # the stat changed or is recent (mtime has one-second resolution: two
  # writes in a second look alike): a change is seen whatever its timing.
  defp fingerprint(path, previous) do
    case File.stat(path, time: :posix) do
      {:ok, %File.Stat{size: size, mtime: mtime, inode: inode}} ->
        stat = {size, mtime, inode}
        recent = System.os_time(:second) - mtime < 3

        case previous do
          {^stat, hash} when not recent -> {stat, hash}
          _ -> {stat, content_hash(path)}
        end

      {:error, reason} ->
        {:error, reason}
    end
  end

  defp content_hash(path) do
    case File.read(path) do
      {:ok, bytes} -> :erlang.md5(bytes)
      {:error, reason} -> {:error, reason}
    end
  end
end
