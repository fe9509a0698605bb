# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "DISTIR"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".onnx.txt"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.distir_obj_root, "test")

config.environment["FILECHECK_OPTS"] = "-enable-var-scope --allow-unused-prefixes=false"
llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# distir's code compiled with assert() and LLVM_DEBUG (DISTIR_ENABLE_ASSERTIONS).
if config.distir_enable_assertions:
    config.available_features.add("asserts")

config.substitutions.append(("%distir_src", config.distir_src_root))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))

tool_dirs = [config.distir_tools_dir, config.llvm_tools_dir]
tools = [
    ToolSubst(name, unresolved="ignore")
    for name in ["dist-opt", "dist-run", "dist-gen", "dist-sim", "dist-translate", "dist-search",
                 "dist-lsp-server"]
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.distir_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)  # `not`, `count` at the start of a RUN line

# dist-run --mpi (test/Mpi): `%mpirun N` starts N ranks on this machine,
# oversubscribed (2 cores run 8 ranks), over shared memory without CMA
# (sandboxes forbid ptrace), one BLAS thread per rank, quiet (no Open MPI
# banners), and killed after a minute so that a hang fails instead of
# stalling the suite.
import shutil

mpirun = shutil.which("mpirun")
if mpirun:
    config.available_features.add("mpi")
    config.substitutions.append(
        ("%mpirun",
         "env OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
         "timeout -k 5 60 " + mpirun + " --quiet --oversubscribe --bind-to none "
         "--mca btl self,vader --mca btl_vader_single_copy_mechanism none -n"))
