{
  # Reproducible environment for datasched: `nix develop` gives the same toolchain as
  # the Makefile's Debian set-up (SimGrid, ZeroMQ, the C++ libraries, Python with our
  # dependencies) and, optionally, real Batsim 4.2.1 from the kapack repository to run
  # policies against the reference engine (`nix develop .#with-batsim`).
  description = "datasched: data-aware HPC job scheduling research framework";

  inputs = {
    nixpkgs.url = "github:NixOS/nixpkgs/nixos-23.11";
    # nur-kapack packages Batsim (attribute batsim-420); `nix flake lock` records the
    # exact revision of both inputs in flake.lock, which is what pins them. This flake
    # could not be evaluated where it was written (no Nix binary cache reachable):
    # the first `nix develop` on a machine with Nix generates flake.lock.
    kapack = {
      url = "github:oar-team/nur-kapack/master";
      inputs.nixpkgs.follows = "nixpkgs";
    };
  };

  outputs = { self, nixpkgs, kapack }:
    let
      system = "x86_64-linux";
      pkgs = import nixpkgs { inherit system; };
      kapackPkgs = kapack.packages.${system};
      # Batsim 4.2.1 (the version our conformance references come from), built with
      # nur-kapack's 4.2.0 recipe. Replace the hash with the one Nix reports on the
      # first build (Nix refuses to build with a wrong hash, so this cannot go stale silently).
      batsim421 = kapackPkgs.batsim-420.overrideAttrs (old: rec {
        version = "4.2.1";
        src = pkgs.fetchFromGitLab {
          domain = "framagit.org";
          owner = "batsim";
          repo = "batsim";
          rev = "v${version}";
          hash = pkgs.lib.fakeHash;
        };
      });
      python = pkgs.python311;
      pythonEnv = python.withPackages (ps: with ps; [
        pyzmq procset sortedcontainers docopt numpy pandas matplotlib lxml pyyaml jsonschema
        pydantic tqdm pytest pytest-xdist hypothesis
      ]);
      toolchain = with pkgs; [
        cmake ninja pkg-config gcc simgrid zeromq cppzmq nlohmann_json cli11 gtest boost gperftools
        pythonEnv uv time
      ];
      shellHook = ''
        # pybatsim 3.2.1, evalys, ortools and snakemake come from the lock file, as on Debian.
        export UV_PYTHON=${pythonEnv}/bin/python
        echo "datasched dev shell: run 'make test' or 'make reproduce'"
      '';
    in {
      devShells.${system} = {
        default = pkgs.mkShell { packages = toolchain; inherit shellHook; };
        with-batsim = pkgs.mkShell {
          packages = toolchain ++ [ batsim421 ];
          inherit shellHook;
        };
      };
    };
}
