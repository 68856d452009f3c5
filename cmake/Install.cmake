# `cmake --install`: tools, libraries, headers, and a package configuration
# so that another project can `find_package(blk)` and link blk::runtime (only
# the CUDA driver needed) or blk::jit (the in-process compiler; needs Debian's
# LLVM/MLIR 22, found through find_package(MLIR)).
include(GNUInstallDirs)

install(TARGETS blkc blk-opt blk-run RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The static libraries of the JIT, users first (the order GNU ld needs).
set(BLK_JIT_LIBS BlkJit BlkInterpreterPasses BlkCompiler BlkInterpreter BlkFrontend BlkPipeline BlkTarget BlkToLLVM BlkTransforms
    BlkAnalysis BlkIR BlkSupport)
foreach(lib IN LISTS BLK_JIT_LIBS ITEMS BlkRuntime BlkRuntimeC)
  install(FILES $<TARGET_FILE:${lib}> DESTINATION ${CMAKE_INSTALL_LIBDIR})
endforeach()
install(TARGETS blk_runtime LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS blk_jit LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}) # the C API of the JIT (Python's ctypes)

install(DIRECTORY include/blk DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/blk DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.inc")

# The MLIR libraries the JIT's static libraries need (their own dependencies come
# with MLIR's imported targets).
set(BLK_MLIR_DEPS MLIRIR MLIRArithDialect MLIRMathDialect MLIRSCFDialect MLIRFuncDialect MLIRLLVMDialect
    MLIRNVVMDialect MLIRGPUDialect MLIRUBDialect MLIRInferTypeOpInterface MLIRSideEffectInterfaces MLIRPass
    MLIRTransforms MLIRSCFTransforms MLIRFuncTransforms MLIRArithToLLVM MLIRControlFlowToLLVM MLIRFuncToLLVM
    MLIRGPUToNVVMTransforms MLIRMathToLLVM MLIRSCFToControlFlow MLIRUBToLLVM MLIRLLVMCommonConversion
    MLIRReconcileUnrealizedCasts MLIRTargetLLVMIRExport MLIRBuiltinToLLVMIRTranslation
    MLIRLLVMToLLVMIRTranslation MLIRNVVMToLLVMIRTranslation)
configure_file(${PROJECT_SOURCE_DIR}/cmake/blkConfig.cmake.in ${PROJECT_BINARY_DIR}/blkConfig.cmake @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/blkConfig.cmake DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/blk)
