// mlir-opt for the blk dialect, its passes and its pipelines.
#include "blk/Frontend/MLIRGen.h"
#include "blk/Pipeline/Pipeline.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  blk::registerBlkPassesAndPipelines();
  mlir::DialectRegistry registry;
  blk::registerBlkDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "blk optimizer driver\n", registry));
}
