# bindings/test.sh sets PERMC_CORPUS (permc-corpus-export's output) and
# PERMC (the CLI, to compile artifacts); the NIF is priv/libpermc_nif.so.
ExUnit.start()
