{
  # Reproducible environment for datasched:
  #   nix develop                 the toolchain of the Makefile's Debian set-up (SimGrid, ZeroMQ, the
  #                               C++ libraries, Python with our dependencies)
  #   nix develop .#with-batsim   the same plus real Batsim 4.2.1 (built below from its source)
  #   nix build .#datasched-sim   the engine;  nix build .#batsim   Batsim 4.2.1
  #   nix flake check             builds both and runs the test suite (checks below)
  # Not evaluated where it was written (no Nix store or binary cache reachable there);
  # tests/unit/test_flake.py parses it and checks that every input and source is pinned.
  description = "datasched: data-aware HPC job scheduling research framework";

  inputs = {
    # The nixpkgs revision that nur-kapack's own flake.lock pins at the nur-kapack
    # revision below (nur-kapack declares nixpkgs 25.05 there), so kapack's recipes are
    # evaluated against the nixpkgs they were tested with. Move both revisions together.
    nixpkgs.url = "github:NixOS/nixpkgs/9be32fbfaab592ccc39eb2f299e42aafddc26b37";
    # nur-kapack master of 2025-06-29: it still packages intervalset, redox, procset,
    # evalys and pybatsim 3.2.1, and still ships the SimGrid 3.34 recipe file, but no
    # longer builds batsim-420 (commented out there), hence our own Batsim below.
    kapack = {
      url = "github:oar-team/nur-kapack/942173ecdbf84de737fbe27dccb162a829c4c470";
      inputs.nixpkgs.follows = "nixpkgs";
    };
  };

  outputs = { self, nixpkgs, kapack }:
    let
      system = "x86_64-linux";
      pkgs = import nixpkgs { inherit system; };
      kpkgs = kapack.packages.${system};

      # SimGrid 3.34, the version Batsim 4.2.x was released against, from nur-kapack's
      # recipe file with the options of its former simgrid-334light.
      simgridForBatsim = (pkgs.callPackage "${kapack}/pkgs/simgrid/simgrid334.nix" { }).override {
        minimalBindings = true;
        withoutBin = true;
        withoutBoostPropagation = true;
        buildPythonBindings = false;
      };

      # Batsim 4.2.1 (the version our conformance references come from), from its source
      # at tag v4.2.1 (commit b5463dba818d6e8109e1bfd218d51c720fbdb30f).
      batsim = pkgs.stdenv.mkDerivation {
        pname = "batsim";
        version = "4.2.1";
        src = pkgs.fetchFromGitHub {
          owner = "oar-team";
          repo = "batsim";
          rev = "v4.2.1";
          hash = "sha256-xecLKFRIpoI149Aj4wFKiW4p0ClzbQuCbzwFwon5igA=";
        };
        nativeBuildInputs = with pkgs; [ meson ninja pkg-config ];
        buildInputs = [
          simgridForBatsim
          kpkgs.intervalsetlight
          kpkgs.redox # brings hiredis and libev
        ] ++ (with pkgs; [ boost rapidjson zeromq cppzmq pugixml docopt_cpp gmp ]);
        mesonBuildType = "release";
        enableParallelBuilding = true;
        meta = {
          description = "Batsim 4.2.1, infrastructure simulator for resource management";
          homepage = "https://github.com/oar-team/batsim";
          license = pkgs.lib.licenses.lgpl3Only;
        };
      };

      # The engine's SimGrid, as simgrid/build.sh builds it (simgrid/README.md): 3.32 from
      # its source distribution on the Python package index, pinned by hash, with the
      # project's patches applied, and the list of applied patches the engine's CMake
      # requires (an unpatched SimGrid would silently ignore traffic weights).
      simgridPatched = pkgs.simgrid.overrideAttrs (old: {
        version = "3.32";
        src = pkgs.fetchurl {
          url = "https://files.pythonhosted.org/packages/a0/72/a42e5172ae0ef7633a97487cb99021901cf42931340cbb8c37605f608221/simgrid-3.32.tar.gz";
          sha256 = "3cc752a28deb2ae42cd51cc835a572f13201702dc94545ced0e77c657231cd76";
        };
        patches = map (name: ./simgrid/patches + "/${name}")
          (builtins.filter (name: pkgs.lib.hasSuffix ".patch" name)
            (builtins.attrNames (builtins.readDir ./simgrid/patches)));
        doCheck = false;
        postInstall = (old.postInstall or "") + ''
          mkdir -p $out/share/datasched
          (cd ${./simgrid/patches} && sha256sum ./*.patch) > $out/share/datasched/simgrid-patches.txt
        '';
      });

      # The engine, built and unit-tested (ctest) as `make engine test-engine` does.
      datasched-sim = pkgs.stdenv.mkDerivation {
        pname = "datasched-sim";
        version = "0.1.0";
        src = ./sim;
        nativeBuildInputs = with pkgs; [ cmake ninja pkg-config ];
        buildInputs = [ simgridPatched ] ++ (with pkgs; [ zeromq cppzmq nlohmann_json cli11 gtest gperftools boost ]);
        # nixpkgs GCC is newer than Debian 12's: its new warnings must not fail the package.
        cmakeFlags = [ "-DCMAKE_BUILD_TYPE=Release" "-DDATASCHED_WERROR=OFF" "-DDATASCHED_SIMGRID_PREFIX=${simgridPatched}" ];
        doCheck = true;
        checkPhase = ''
          runHook preCheck
          ctest --output-on-failure --no-tests=error -j $NIX_BUILD_CORES
          runHook postCheck
        '';
        installPhase = ''
          runHook preInstall
          install -Dm755 datasched-sim $out/bin/datasched-sim
          install -Dm755 libdatasched-sim.so $out/lib/libdatasched-sim.so
          runHook postInstall
        '';
      };

      # Python with what the tests import; pybatsim 3.2.1, procset and evalys come from
      # nur-kapack (built for the same nixpkgs Python).
      pythonEnv = pkgs.python3.withPackages (ps: with ps; [
        pyzmq sortedcontainers docopt numpy pandas matplotlib plotly pyyaml jsonschema pydantic ortools
        snakemake pytest pytest-xdist hypothesis ruff mypy setuptools wheel pip
      ] ++ [ kpkgs.procset kpkgs.evalys kpkgs.pybatsim ]);

      toolchain = with pkgs; [
        cmake ninja pkg-config gcc clang-tools simgridPatched zeromq cppzmq nlohmann_json cli11 gtest boost gperftools
        pythonEnv uv time chromium  # chromium: the explorer page's browser test
      ];
      shellHook = ''
        export UV_PYTHON=${pythonEnv}/bin/python
        echo "datasched dev shell: run 'make test' or 'make reproduce'"
      '';

      # The Python test suite against the engine above, from a copy of the source tree
      # (the sandbox has no network: dependencies come from pythonEnv, not the lock file).
      python-tests = pkgs.runCommand "datasched-python-tests" {
        nativeBuildInputs = [ pythonEnv datasched-sim pkgs.gcc simgridPatched pkgs.gnumake pkgs.cmake pkgs.ninja ];
      } ''
        cp -r ${self} src && chmod -R u+w src && cd src
        export HOME=$TMPDIR DATASCHED_SIM=${datasched-sim}/bin/datasched-sim
        python -m venv --system-site-packages $TMPDIR/venv
        $TMPDIR/venv/bin/pip install --no-deps --no-build-isolation --no-index --ignore-requires-python -e .
        $TMPDIR/venv/bin/python -m pytest -q -p no:cacheprovider -n $NIX_BUILD_CORES -m "not slow" tests
        touch $out
      '';
    in {
      packages.${system} = {
        inherit batsim datasched-sim;
        default = datasched-sim;
      };
      checks.${system} = {
        inherit datasched-sim python-tests;
      };
      devShells.${system} = {
        default = pkgs.mkShell { packages = toolchain; inherit shellHook; };
        with-batsim = pkgs.mkShell {
          packages = toolchain ++ [ batsim ];
          inherit shellHook;
        };
      };
    };
}
