//===- SpaceTest.cpp - Enumeration, rules, memory bound, reports ----------===//

#include "distir/Search/Space.h"
#include "distir/Search/Report.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <sstream>

using namespace distir::search;

namespace {

/// An MLP as the search sees it: `layers` square f32 layers of `hidden`.
ModelFacts mlpFacts(int64_t layers, int64_t hidden) {
  ModelFacts facts;
  facts.name = "mlp";
  for (int64_t l = 0; l < layers; ++l) {
    LayerFacts layer;
    layer.parameterBytes = hidden * hidden * 4;
    // matmul and relu results, both read by the backward.
    layer.stashBytesPerSample = 2.0 * hidden * 4;
    facts.layers.push_back(layer);
  }
  facts.dataBytesPerSample = 2 * hidden * 4;
  facts.tpDivides = {{"hidden size", hidden}};
  return facts;
}

std::vector<int64_t> powersOfTwo(int from, int to) {
  std::vector<int64_t> values;
  for (int k = from; k <= to; ++k)
    values.push_back(int64_t(1) << k);
  return values;
}

/// DistIR's default grid (REFERENCE.md): world sizes 1, 2, 4, batch sizes
/// 2^0..2^15, power-of-two (dp, tp, pp), microbatches 2..128 when pp > 1,
/// skipping what leaves a replica or a microbatch without samples.
SpaceOptions distIrGrid() {
  SpaceOptions options;
  options.deviceCounts = {1, 2, 4};
  options.globalBatches = powersOfTwo(0, 15);
  options.microbatches = powersOfTwo(1, 7);
  options.schedules = {Schedule::OneFOneB};
  options.powersOfTwo = true;
  return options;
}

TEST(SearchSpace, ReproducesDistIrGridCount) {
  int64_t total = 0;
  RejectionCounts rejected;
  for (auto [layers, hidden] :
       {std::pair<int64_t, int64_t>{16, 8192}, {64, 16384}, {96, 32768}})
    total +=
        enumerateSpace(mlpFacts(layers, hidden), distIrGrid(), rejected).size();
  EXPECT_EQ(total, 1263);
  // DistIR's skips: dp larger than the batch, microbatches larger than a
  // replica's batch.
  EXPECT_EQ(rejected.size(), 2u);
  // Per model: (2,1,1) at batch 1, (4,1,1) at 1 and 2, (2,2,1) at 1, and
  // (2,1,2) at batch 1 with each of its 7 microbatch counts.
  EXPECT_EQ(rejected["dp does not divide the global batch"],
            3 * (1 + 2 + 1 + 7));
  EXPECT_GT(rejected["more microbatches than samples per replica"], 0);
}

TEST(SearchSpace, EveryFactorizationNotOnlyPowersOfTwo) {
  SpaceOptions options;
  options.deviceCounts = {12};
  options.globalBatches = {24};
  options.schedules = {Schedule::OneFOneB};
  options.microbatches = {1};
  RejectionCounts rejected;
  ModelFacts facts = mlpFacts(12, 96);
  std::set<std::tuple<int64_t, int64_t, int64_t>> shapes;
  for (const Configuration &c : enumerateSpace(facts, options, rejected)) {
    EXPECT_EQ(c.dp * c.tp * c.pp, 12);
    shapes.insert({c.dp, c.tp, c.pp});
  }
  // Ordered factorizations of 12 = 2^2 * 3 into three factors: 6 * 3.
  EXPECT_EQ(shapes.size(), 18u);
  EXPECT_TRUE(shapes.count({3, 2, 2}));
  EXPECT_TRUE(rejected.empty());
}

TEST(SearchSpace, CountsInvalidConfigurationsByReason) {
  ModelFacts facts = mlpFacts(2, 8);
  facts.tpDivides = {{"attention heads (6)", 6}};
  SpaceOptions options;
  options.deviceCounts = {8};
  options.globalBatches = {4};
  options.microbatches = {1, 2, 8};
  options.schedules = {Schedule::GPipe, Schedule::OneFOneB};
  RejectionCounts rejected;
  std::vector<Configuration> valid = enumerateSpace(facts, options, rejected);
  for (const Configuration &c : valid) {
    EXPECT_EQ(6 % c.tp, 0);
    EXPECT_LE(c.pp, 2);
    EXPECT_EQ(4 % c.dp, 0);
    EXPECT_EQ((4 / c.dp) % c.microbatches, 0);
  }
  EXPECT_GT(rejected["tp does not divide the attention heads (6)"], 0);
  EXPECT_GT(rejected["more pipeline stages than layers"], 0);
  EXPECT_GT(rejected["dp does not divide the global batch"], 0);
  EXPECT_GT(rejected["more microbatches than samples per replica"], 0);
}

TEST(SearchSpace, DefaultMicrobatchesAreTheDivisors) {
  ModelFacts facts = mlpFacts(4, 8);
  SpaceOptions options;
  options.deviceCounts = {2};
  options.globalBatches = {12};
  options.schedules = {Schedule::OneFOneB};
  RejectionCounts rejected;
  std::set<int64_t> counts;
  for (const Configuration &c : enumerateSpace(facts, options, rejected))
    if (c.pp == 2)
      counts.insert(c.microbatches);
    else
      EXPECT_EQ(c.microbatches, 1); // no accumulation without a pipeline
  EXPECT_EQ(counts, (std::set<int64_t>{1, 2, 3, 4, 6, 12}));
  EXPECT_TRUE(rejected.empty());

  options.accumulateWithoutPipeline = true;
  options.maxMicrobatches = 4;
  counts.clear();
  for (const Configuration &c : enumerateSpace(facts, options, rejected))
    if (c.pp == 1 && c.dp == 1)
      counts.insert(c.microbatches);
  EXPECT_EQ(counts, (std::set<int64_t>{1, 2, 3, 4}));
}

TEST(SearchSpace, MemoryBoundCountsStateAndStashesInFlight) {
  ModelFacts facts = mlpFacts(4, 1024);
  for (LayerFacts &layer : facts.layers)
    layer.optimizerStateBytes = 2 * layer.parameterBytes; // Adam moments
  int64_t parameters = 4 * 1024 * 1024 * 4;
  Configuration config{/*devices=*/8,      /*globalBatch=*/64,
                       /*dp=*/2,
                       /*tp=*/2,           /*pp=*/2,
                       /*microbatches=*/4, Schedule::OneFOneB};
  // Persistent: parameters, gradients and moments over pp * tp.
  int64_t persistent = 4 * parameters / 4;
  EXPECT_EQ(estimateMemoryLowerBound(facts, config), persistent);

  // Large microbatches: the stashes dominate. Per sample 4 layers x 8 KiB;
  // 1F1B holds 2 microbatches on stage 0 and 1 on stage 1, so some stage
  // holds at least X / (1/2 + 1) of the stash X of one microbatch.
  config.globalBatch = 2 * 4 * 8192;
  double stashPerMicrobatch = 4 * 8192.0 * 8192 / 2;
  EXPECT_EQ(estimateMemoryLowerBound(facts, config),
            int64_t(stashPerMicrobatch / 1.5));
  // GPipe holds all 4 microbatches on every stage.
  config.schedule = Schedule::GPipe;
  EXPECT_EQ(estimateMemoryLowerBound(facts, config),
            int64_t(stashPerMicrobatch / 0.5));
  EXPECT_EQ(getMicrobatchesInFlight(config, 1), 4);
  config.schedule = Schedule::OneFOneB;
  EXPECT_EQ(getMicrobatchesInFlight(config, 0), 2);
  EXPECT_EQ(getMicrobatchesInFlight(config, 1), 1);
}

TEST(SearchSpace, MemoryBoundDoesNotOverflowForATrillionParameters) {
  // 128 layers x 7.8e9 parameters of 4 bytes, Adam: 1e12 parameters.
  ModelFacts facts;
  for (int l = 0; l < 128; ++l) {
    LayerFacts layer;
    layer.parameterBytes = int64_t(7.8e9) * 4;
    layer.optimizerStateBytes = 2 * layer.parameterBytes;
    layer.stashBytesPerSample = 4.0e9;
    facts.layers.push_back(layer);
  }
  Configuration config;
  config.devices = 1;
  config.globalBatch = 1;
  int64_t bound = estimateMemoryLowerBound(facts, config);
  EXPECT_EQ(bound, 4 * int64_t(7.8e9) * 4 * 128);
}

TEST(SearchSpace, ConfigurationKeyAndText) {
  Configuration a{/*devices=*/8, /*globalBatch=*/16,
                  /*dp=*/2,      /*tp=*/2,
                  /*pp=*/2,      /*microbatches=*/4};
  EXPECT_EQ(a.str(), "dp=2 tp=2 pp=2 mb=4 1f1b batch=16");
  EXPECT_EQ(a.getMicrobatchSize(), 2);
  Configuration b = a;
  b.schedule = Schedule::GPipe;
  EXPECT_TRUE(b < a || a < b);
  EXPECT_FALSE(a == b);
  Configuration single;
  EXPECT_EQ(single.str(), "dp=1 tp=1 pp=1 mb=1 batch=1");
  EXPECT_EQ(parseSchedule("gpipe"), Schedule::GPipe);
  EXPECT_EQ(parseSchedule("1F1B"), std::nullopt);
}

Evaluation evaluation(int64_t dp, double samplesPerS, bool fits) {
  Evaluation e;
  e.config.devices = 4;
  e.config.globalBatch = 8;
  e.config.dp = dp;
  e.config.tp = 4 / dp;
  e.samplesPerS = samplesPerS;
  e.stepTimeS = 8 / samplesPerS;
  e.fits = fits;
  e.peakMemoryBytes = 1 << 20;
  e.command = "dist-opt --dist-x=\"a b,c\"";
  return e;
}

TEST(SearchReport, RankingIsDeterministic) {
  std::vector<Evaluation> list = {
      evaluation(1, 100, true), evaluation(2, 300, false),
      evaluation(4, 100, true), evaluation(2, 200, true)};
  std::vector<Evaluation> reversed(list.rbegin(), list.rend());
  rankEvaluations(list);
  rankEvaluations(reversed);
  for (size_t i = 0; i < list.size(); ++i)
    EXPECT_TRUE(list[i].config == reversed[i].config);
  // Fitting first, then throughput, then the configuration key (tp=4 < tp=1
  // is not the key's order: dp decides after pp and tp).
  EXPECT_EQ(list[0].config.dp, 2);
  EXPECT_FALSE(list[3].fits);
  EXPECT_EQ(list[1].config.tp, 1);
}

ScenarioReport sampleReport() {
  ScenarioReport report;
  report.model = "mlp:layers=2,hidden=8";
  report.cluster = "dgx-a100";
  report.devices = 4;
  report.memoryCapacityBytes = int64_t(80) << 30;
  report.considered = 7;
  report.invalid["tp does not divide the hidden size"] = 2;
  report.prunedByMemory = 1;
  report.evaluations = {evaluation(2, 200, true), evaluation(4, 100, false)};
  return report;
}

TEST(SearchReport, TableShowsCountsAndCommands) {
  std::ostringstream os;
  printReport(os, sampleReport(), 10);
  std::string text = os.str();
  EXPECT_NE(text.find("7 considered, 2 invalid, 1 pruned by the memory bound, "
                      "0 pruned by the time bound, 0 refused by the "
                      "transforms, 2 simulated (1 fit)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("invalid: 2 x tp does not divide the hidden size"),
            std::string::npos);
  EXPECT_NE(text.find("$ dist-opt --dist-x=\"a b,c\""), std::string::npos);
  // Only configurations that fit are ranked.
  EXPECT_EQ(text.find("\n   2 "), std::string::npos) << text;
}

TEST(SearchReport, CsvAndJsonHaveOneRowPerSimulatedConfiguration) {
  std::vector<ScenarioReport> reports = {sampleReport()};
  std::ostringstream csv;
  writeCsv(csv, reports);
  std::istringstream lines(csv.str());
  std::string header, row;
  std::getline(lines, header);
  EXPECT_EQ(header.rfind("model,cluster,devices,", 0), 0u);
  int rows = 0;
  while (std::getline(lines, row)) {
    ++rows;
    // The model and the command are quoted: they hold commas and quotes.
    EXPECT_EQ(row.rfind("\"mlp:layers=2,hidden=8\",dgx-a100,4,8,", 0), 0u);
    EXPECT_NE(row.find("\"dist-opt --dist-x=\"\"a b,c\"\"\""),
              std::string::npos);
  }
  EXPECT_EQ(rows, 2);

  std::ostringstream json;
  writeJson(json, reports);
  nlohmann::json parsed = nlohmann::json::parse(json.str());
  const nlohmann::json &scenario = parsed["scenarios"][0];
  EXPECT_EQ(scenario["simulated"], 2);
  EXPECT_EQ(scenario["invalid"]["tp does not divide the hidden size"], 2);
  EXPECT_EQ(scenario["configurations"].size(), 2u);
  EXPECT_EQ(scenario["configurations"][1]["fits"], false);
}

TEST(SearchReport, ProgressBarIsSilentWhenDisabled) {
  std::FILE *file = std::tmpfile();
  ASSERT_TRUE(file);
  {
    ProgressBar bar(file, /*enabled=*/false, "x");
    bar.update(1, 2);
    bar.update(2, 2);
  }
  EXPECT_EQ(std::ftell(file), 0);
  {
    ProgressBar bar(file, /*enabled=*/true, "x");
    bar.update(2, 2);
  }
  EXPECT_GT(std::ftell(file), 0);
  std::fclose(file);
}

} // namespace
