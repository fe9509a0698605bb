//===- dist-gen.cpp - generate forward programs of models -----------------===//
//
//   dist-gen mlp --layers L --hidden H --batch B [--input-dim D] [--dtype T]
//   dist-gen gpt --layers L --hidden H --heads A --seq S --vocab V --batch B
//                [--dtype T]
//
// A thin command line over distir/Models: checks the options, builds the
// module and prints it (to -o, default stdout).
//
//===----------------------------------------------------------------------===//

#include "distir/InitAll.h"
#include "distir/Models/Models.h"
#include "distir/Support/DebugOptions.h"
#include "distir/Support/ToolSupport.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace distir::models;

static cl::SubCommand mlpCommand(
    "mlp", "DistIR's MLP: layers x (matmul, relu), mean squared error loss");
static cl::SubCommand gptCommand(
    "gpt", "GPT decoder: embeddings, layers x (layer norm, causal attention, "
           "layer norm, GeLU MLP), LM head, cross-entropy loss");

static cl::OptionCategory modelCategory("Model options");

static cl::opt<int64_t> layers("layers", cl::desc("Number of layers"),
                               cl::sub(mlpCommand), cl::sub(gptCommand),
                               cl::cat(modelCategory));
static cl::opt<int64_t> hidden("hidden", cl::desc("Hidden size"),
                               cl::sub(mlpCommand), cl::sub(gptCommand),
                               cl::cat(modelCategory));
static cl::opt<int64_t> batch("batch", cl::desc("Batch size"),
                              cl::sub(mlpCommand), cl::sub(gptCommand),
                              cl::cat(modelCategory));
static cl::opt<std::string> dtype("dtype",
                                  cl::desc("Element type: f64, f32, f16, bf16"),
                                  cl::init("f32"), cl::sub(mlpCommand),
                                  cl::sub(gptCommand), cl::cat(modelCategory));
// Options of one model are known to both subcommands so that using one with
// the other model gets a clear error (llvm::cl would read an unknown
// "--heads" as the grouped short option -h and print the help).
static cl::opt<int64_t>
    inputDim("input-dim", cl::desc("mlp: input width (default: --hidden)"),
             cl::sub(mlpCommand), cl::sub(gptCommand), cl::cat(modelCategory));
static cl::opt<int64_t> heads("heads", cl::desc("gpt: attention heads"),
                              cl::sub(mlpCommand), cl::sub(gptCommand),
                              cl::cat(modelCategory));
static cl::opt<int64_t> seqLength("seq", cl::desc("gpt: sequence length"),
                                  cl::sub(mlpCommand), cl::sub(gptCommand),
                                  cl::cat(modelCategory));
static cl::opt<int64_t> vocab("vocab", cl::desc("gpt: vocabulary size"),
                              cl::sub(mlpCommand), cl::sub(gptCommand),
                              cl::cat(modelCategory));
static cl::opt<bool> untieEmbeddings(
    "untie-embeddings",
    cl::desc("gpt: a separate LM head lm_head.weight [H, V] instead of the "
             "word embedding transposed"),
    cl::sub(mlpCommand), cl::sub(gptCommand), cl::cat(modelCategory));
static cl::opt<double>
    dropout("dropout",
            cl::desc("gpt: training dropout probability after the "
                     "embeddings, on the attention probabilities and after "
                     "the attention projection and the MLP (Megatron-LM's "
                     "places and default, 0.1); 0: none"),
            cl::init(GptConfig().dropout), cl::sub(mlpCommand),
            cl::sub(gptCommand), cl::cat(modelCategory));
enum class AttentionKind { Unfused, Fused };
static cl::opt<AttentionKind> attention(
    "attention",
    cl::desc("gpt: the attention core as separate ops (unfused: matmul, "
             "softmax, dropout, matmul; the default) or one dist.attention "
             "(fused, FlashAttention)"),
    cl::values(clEnumValN(AttentionKind::Unfused, "unfused",
                          "matmul, softmax, dropout, matmul"),
               clEnumValN(AttentionKind::Fused, "fused",
                          "one fused attention op and its gradient")),
    cl::init(AttentionKind::Unfused), cl::sub(mlpCommand), cl::sub(gptCommand),
    cl::cat(modelCategory));
static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("filename"),
                                           cl::init("-"), cl::sub(mlpCommand),
                                           cl::sub(gptCommand),
                                           cl::cat(modelCategory));

static int fail(const Twine &message) {
  WithColor::error(errs(), "dist-gen") << message << "\n";
  return 1;
}

/// The first of `options` that was (`given`) or was not given, spelled as on
/// the command line, or an empty string.
static std::string findOption(ArrayRef<cl::opt<int64_t> *> options,
                              bool given) {
  for (cl::opt<int64_t> *option : options)
    if ((option->getNumOccurrences() != 0) == given)
      return ("--" + option->ArgStr).str();
  return "";
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  distir::installOutOfMemoryHandler("dist-gen");
  distir::registerDebugOptions();
  // LLVM's own options (registered for every subcommand) are noise here.
  for (cl::SubCommand *sub :
       {&cl::SubCommand::getTopLevel(), &cl::SubCommand::getAll(), &mlpCommand,
        &gptCommand})
    cl::HideUnrelatedOptions(modelCategory, *sub);
  distir::parseCommandLine(
      argc, argv,
      "distir model generator: prints the forward program of a model\n\n"
      "  dist-gen mlp --layers L --hidden H --batch B [--input-dim D] [--dtype "
      "T]\n"
      "  dist-gen gpt --layers L --hidden H --heads A --seq S --vocab V "
      "--batch B [--dtype T] [--dropout P] [--attention fused|unfused]\n");
  distir::rejectRepeatedOptions("dist-gen");

  bool isMlp = bool(mlpCommand), isGpt = bool(gptCommand);
  if (!isMlp && !isGpt)
    return fail("expected a model: 'dist-gen mlp ...' or 'dist-gen gpt ...' "
                "(see --help)");
  StringRef model = isMlp ? "mlp" : "gpt";
  std::string missing =
      isMlp ? findOption({&layers, &hidden, &batch}, /*given=*/false)
            : findOption({&layers, &hidden, &heads, &seqLength, &vocab, &batch},
                         /*given=*/false);
  if (!missing.empty())
    return fail(Twine(model) + " needs " + missing);
  std::string foreign = isMlp ? findOption({&heads, &seqLength, &vocab}, true)
                              : findOption({&inputDim}, true);
  if (isMlp && untieEmbeddings.getNumOccurrences())
    foreign = "--untie-embeddings";
  if (isMlp && dropout.getNumOccurrences())
    foreign = "--dropout";
  if (isMlp && attention.getNumOccurrences())
    foreign = "--attention";
  if (!foreign.empty())
    return fail(Twine(model) + " has no option " + foreign);

  mlir::DialectRegistry registry;
  distir::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));

  // Configuration problems are reported here in the options' own words;
  // the builders re-check and would only fail on a bug.
  std::optional<std::string> problem;
  mlir::FailureOr<mlir::func::FuncOp> func;
  if (isMlp) {
    MlpConfig config;
    config.layers = layers;
    config.hidden = hidden;
    config.batch = batch;
    config.inputDim = inputDim.getNumOccurrences() ? inputDim.getValue() : 0;
    if (inputDim.getNumOccurrences() && inputDim <= 0)
      return fail("--input-dim must be a positive integer, got " +
                  Twine(inputDim.getValue()));
    config.dtype = dtype;
    if ((problem = verifyConfig(config)))
      return fail(*problem);
    func = buildMlp(*module, config);
  } else {
    GptConfig config;
    config.layers = layers;
    config.hidden = hidden;
    config.heads = heads;
    config.seq = seqLength;
    config.vocab = vocab;
    config.tieEmbeddings = !untieEmbeddings;
    config.batch = batch;
    config.dtype = dtype;
    config.dropout = dropout;
    config.fusedAttention = attention == AttentionKind::Fused;
    if ((problem = verifyConfig(config)))
      return fail(*problem);
    func = buildGpt(*module, config);
  }
  if (failed(func) || failed(mlir::verify(*module)))
    return fail("internal error: the generated program does not verify");

  std::string errorMessage;
  std::unique_ptr<ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output)
    return fail(errorMessage);
  module->print(output->os());
  output->os() << "\n";
  if (std::optional<std::string> error =
          distir::keepOutputFile(*output, outputFilename))
    return fail(*error);
  return 0;
}
