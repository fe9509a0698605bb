//===- TrainingStepTest.cpp - optimizer wiring of dist-autodiff -----------===//
//
// The gradients are checked against finite differences elsewhere; here the
// SGD and Adam steps must apply exactly their update rule to those
// gradients, with every state argument wired to its own result.
//
//===----------------------------------------------------------------------===//

#include "GradientCheck.h"

#include "distir/Models/Models.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace distir;
using namespace distir::testing;
using namespace mlir;

namespace {

class TrainingStepTest : public ::testing::Test {
protected:
  void SetUp() override {
    context = makeContext();
    forward = ModuleOp::create(UnknownLoc::get(context.get()));
    models::MlpConfig config;
    config.layers = 2;
    config.hidden = 4;
    config.batch = 3;
    config.inputDim = 5;
    config.dtype = "f64";
    ASSERT_TRUE(succeeded(models::buildMlp(*forward, config)));
    ASSERT_TRUE(succeeded(
        makeArguments(getFirstFunction(*forward), /*seed=*/3, inputs, error)))
        << error;
    // The MLP's arguments: two weights, then input and target.
    parameters.assign(inputs.begin(), inputs.begin() + 2);
    data.assign(inputs.begin() + 2, inputs.end());

    dist::DistAutodiffOptions none;
    none.optimizer = dist::Optimizer::None;
    std::vector<PlacedValue> results = run(none, inputs);
    ASSERT_EQ(results.size(), 3u);
    gradients.assign(results.begin() + 1, results.end());
  }

  std::vector<PlacedValue> run(const dist::DistAutodiffOptions &options,
                               const std::vector<PlacedValue> &arguments) {
    OwningOpRef<ModuleOp> step = differentiate(*forward, options, error);
    EXPECT_TRUE(step) << error;
    if (!step)
      return {};
    std::vector<PlacedValue> results;
    Interpreter interpreter(*step);
    EXPECT_TRUE(succeeded(
        interpreter.run(getFirstFunction(*step), arguments, results)));
    return results;
  }

  static PlacedValue filled(const PlacedValue &like, double value) {
    auto tensor = std::make_shared<HostTensor>(*like.locals[0]);
    tensor->fill(value);
    return PlacedValue{{}, {tensor}};
  }

  static double at(const PlacedValue &value, int64_t i) {
    return value.locals[0]->getAsDouble(i);
  }

  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> forward;
  std::vector<PlacedValue> inputs, parameters, data, gradients;
  std::string error;
};

TEST_F(TrainingStepTest, SgdSubtractsTheScaledGradient) {
  dist::DistAutodiffOptions sgd;
  sgd.optimizer = dist::Optimizer::Sgd;
  sgd.learningRate = 0.125;
  std::vector<PlacedValue> results = run(sgd, inputs);
  ASSERT_EQ(results.size(), 3u);
  for (int p = 0; p < 2; ++p)
    for (int64_t i = 0; i < parameters[p].locals[0]->getNumElements(); ++i)
      EXPECT_DOUBLE_EQ(at(results[1 + p], i),
                       at(parameters[p], i) - 0.125 * at(gradients[p], i));
}

TEST_F(TrainingStepTest, FirstAdamStepFollowsKingmaAndBa) {
  dist::DistAutodiffOptions adam;
  adam.optimizer = dist::Optimizer::Adam;
  adam.learningRate = 0.01;
  adam.beta1 = 0.8;
  adam.beta2 = 0.9;
  adam.epsilon = 1e-3;
  // Parameters, then (m, v) per parameter and the step, then the data.
  std::vector<PlacedValue> arguments = parameters;
  for (const PlacedValue &parameter : parameters) {
    arguments.push_back(filled(parameter, 0.0));
    arguments.push_back(filled(parameter, 0.0));
  }
  arguments.push_back(
      PlacedValue{{},
                  {std::make_shared<HostTensor>(
                      HostTensor::fromValues(ElementType::F32, {}, {1.0}))}});
  arguments.insert(arguments.end(), data.begin(), data.end());

  std::vector<PlacedValue> results = run(adam, arguments);
  // Loss, 2 parameters, 2 x (m, v), step.
  ASSERT_EQ(results.size(), 1u + 2 + 4 + 1);
  for (int p = 0; p < 2; ++p) {
    const PlacedValue &newParam = results[1 + p], &m = results[3 + 2 * p],
                      &v = results[4 + 2 * p];
    for (int64_t i = 0; i < parameters[p].locals[0]->getNumElements(); ++i) {
      double g = at(gradients[p], i);
      EXPECT_NEAR(at(m, i), 0.2 * g, 1e-15);
      EXPECT_NEAR(at(v, i), 0.1 * g * g, 1e-15);
      // Bias correction at step 1 gives back g and g^2.
      double expected = at(parameters[p], i) - 0.01 * g / (std::abs(g) + 1e-3);
      EXPECT_NEAR(at(newParam, i), expected, 1e-12);
    }
  }
  EXPECT_EQ(at(results.back(), 0), 2.0);
}

} // namespace
