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

  It says what it does: a line before cargo starts (the first build
  compiles the NIF's crates, minutes), cargo's own progress lines while
  it runs, and nothing when the NIF in priv/ is newer than every source
  it is built from (native/, the permc crates it uses, the Cargo files)
  and of the same profile — that NIF is reused without running cargo.
  Without cargo on PATH it stops with one line saying what to install.
  """
  use Mix.Task.Compiler

  @native Path.expand("native", __DIR__)
  @root Path.expand("../..", __DIR__)
  # The permc crates the NIF is built from (native/Cargo.toml's path
  # dependency, permc-runtime, and the crates under it).
  @crates ~w(shell grammar core compiler runtime)

  @impl true
  def run(_args) do
    profile = System.get_env("PERMC_NIF_PROFILE") || if(Mix.env() == :prod, do: "release", else: "dev")
    priv = Path.join(Mix.Project.app_path(), "priv")
    nif = Path.join(priv, "libpermc_nif.so")
    stamp = Path.join(Mix.Project.app_path(), ".permc_nif_profile")

    if File.exists?(nif) and File.read(stamp) == {:ok, profile} and not Mix.Utils.stale?(sources(), [nif]) do
      {:noop, []}
    else
      build(profile, priv, nif, stamp)
    end
  end

  defp sources do
    Mix.Utils.extract_files([@native | Enum.map(@crates, &Path.join(@root, &1))], "*") ++
      Enum.filter(
        [Path.join(@root, "bindings/Cargo.toml"), Path.join(@root, "bindings/Cargo.lock"), Path.join(@root, "Cargo.toml")],
        &File.exists?/1
      )
  end

  defp build(profile, priv, nif, stamp) do
    cargo =
      System.find_executable("cargo") ||
        Mix.raise(
          "permc: cargo was not found on PATH, and the permc NIF is built with it. " <>
            "Install Rust (https://rustup.rs) and make sure `cargo --version` runs in this shell, then run mix compile again."
        )

    target = System.get_env("CARGO_TARGET_DIR") || Path.expand("../target", __DIR__)

    args =
      ["build", "--manifest-path", Path.join(@native, "Cargo.toml")] ++
        if(profile == "release", do: ["--release"], else: [])

    Mix.shell().info(
      "==> permc: building the NIF with cargo (#{profile} profile, into #{target}); " <>
        "the first build compiles its crates and takes a few minutes"
    )

    case System.cmd(cargo, args, env: [{"CARGO_TARGET_DIR", target}], into: IO.stream(:stdio, :line), stderr_to_stdout: true) do
      {_, 0} ->
        out = Path.join(target, if(profile == "release", do: "release", else: "debug"))
        # Mix links the build's priv to the source's priv/ when there is
        # one; a link left from a priv/ since removed is replaced.
        if match?({:ok, _}, File.read_link(priv)) and not File.dir?(priv), do: File.rm!(priv)
        File.mkdir_p!(priv)
        # The VM loads `libpermc_nif.so` on every system (macOS too).
        File.cp!(Path.join(out, library()), nif)
        File.write!(stamp, profile)
        {:ok, []}

      {_, status} ->
        Mix.raise("permc: cargo build of the NIF failed (exit #{status}); cargo's messages are above")
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
