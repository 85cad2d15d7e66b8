defmodule Permc.MixProject do
  use Mix.Project

  # No dependencies: Hex packages cannot be fetched here, and the NIF is
  # built with cargo by bindings/test.sh (priv/libpermc_nif.so).
  def project do
    [app: :permc, version: "0.1.0", elixir: "~> 1.14", deps: []]
  end

  def application, do: [extra_applications: []]
end
