import os
import lit.formats
from lit.llvm import llvm_config

config.name = "blk"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".blk", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "unit", "gpu", "interp", "common", "Inputs", "kernels"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.blk_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["blkc", "blk-opt", "blk-run"], [config.blk_tools_dir])
config.substitutions.append(("%blk_src", config.blk_src_root))
config.substitutions.append(("%kernels", os.path.join(config.blk_src_root, "kernels")))
config.substitutions.append(("%ptxas", config.ptxas))
config.substitutions.append(("%cxx", config.cxx))
config.substitutions.append(("%cuda_include", config.cuda_include))
