defmodule Mix.Tasks.Compile.PermcNif do
  @shortdoc "Builds the permc NIF with cargo into priv/"
  @moduledoc """
  The Mix compiler step that builds the NIF (native/, a cargo crate) and
  puts it in the application's priv directory, where `Permc.Native`
  finds it through `:code.priv_dir(:permc)`: in `mix test`, in a project
  that depends on `{:permc, path: …}`, and in a `mix release`.

  The cargo profile is `release` under `MIX_ENV=prod` and `dev`
  otherwise; `PERMC_NIF_PROFILE` (`release` or `dev`) chooses it. Cargo's
  target directory is `CARGO_TARGET_DIR`, or the bindings' `target/`.
  Needs cargo (Hex is not used: no rustler package).
  """
  use Mix.Task.Compiler

  @native Path.expand("native", __DIR__)

  @impl true
  def run(_args) do
    profile = System.get_env("PERMC_NIF_PROFILE") || if(Mix.env() == :prod, do: "release", else: "dev")

    target =
      System.get_env("CARGO_TARGET_DIR") || Path.expand("../target", __DIR__)

    args =
      ["build", "--quiet", "--manifest-path", Path.join(@native, "Cargo.toml")] ++
        if(profile == "release", do: ["--release"], else: [])

    case System.cmd("cargo", args, env: [{"CARGO_TARGET_DIR", target}], into: IO.stream(:stdio, :line), stderr_to_stdout: true) do
      {_, 0} ->
        out = Path.join(target, if(profile == "release", do: "release", else: "debug"))
        priv = Path.join(Mix.Project.app_path(), "priv")
        # Mix links the build's priv to the source's priv/ when there is
        # one; a link left from a priv/ since removed is replaced.
        if match?({:ok, _}, File.read_link(priv)) and not File.dir?(priv), do: File.rm!(priv)
        File.mkdir_p!(priv)
        # The VM loads `libpermc_nif.so` on every system (macOS too).
        File.cp!(Path.join(out, library()), Path.join(priv, "libpermc_nif.so"))
        {:ok, []}

      {_, status} ->
        Mix.raise("cargo build of the permc NIF failed (exit #{status})")
    end
  end

  defp library do
    case :os.type() do
      {:unix, :darwin} -> "libpermc_nif.dylib"
      {:win32, _} -> "permc_nif.dll"
      _ -> "libpermc_nif.so"
    end
  end
end

defmodule Permc.MixProject do
  use Mix.Project

  # No dependencies: Hex packages cannot be fetched here. The NIF is built
  # with cargo by the compiler step above (Mix.Tasks.Compile.PermcNif).
  def project do
    [
      app: :permc,
      version: "0.1.0",
      elixir: "~> 1.14",
      # The NIF first: Permc.Native loads it when the module is loaded.
      compilers: [:permc_nif] ++ Mix.compilers(),
      deps: [],
      description: "permc in process: the policy compiler's decisions from Elixir (a NIF built with cargo)",
      # MIT OR Apache-2.0, at the user's choice (LICENSE-MIT, LICENSE-APACHE).
      package: [licenses: ["MIT", "Apache-2.0"]]
    ]
  end

  def application, do: [extra_applications: []]
end
