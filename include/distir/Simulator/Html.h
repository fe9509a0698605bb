//===- Html.h - Self-contained pages that plot a step -----------*- C++ -*-===//
//
// dist-sim --html and dist-search --html write one HTML file each that works
// offline: Chart.js (Debian's libjs-chart.js, embedded at build time) draws
// the data the page carries as JSON. The Python package plots the same data
// (getStepPlotJson) with matplotlib.
//
//===----------------------------------------------------------------------===//

#ifndef DISTIR_SIMULATOR_HTML_H
#define DISTIR_SIMULATOR_HTML_H

#include "distir/Simulator/Program.h"
#include "distir/Simulator/Simulator.h"

#include <ostream>
#include <string>
#include <string_view>

namespace distir {
namespace sim {

/// A page titled `title`: `bodyHtml`, then Chart.js, `const DATA = <dataJson>`
/// and `script`, which draws into the body's canvases. Every chart the script
/// makes through `distirChart(canvasId, config)` lists its axis titles and
/// its datasets (with their point counts) under its canvas, so the page's
/// text says what the pictures show.
void writeChartPage(std::ostream &os, std::string_view title,
                    std::string_view bodyHtml, std::string_view dataJson,
                    std::string_view script);

/// What the step page and the Python plots show (JSON): "report" (the
/// --report JSON), "classes" (per device class: devices, busy / comm / idle
/// seconds, the bytes at the peak by kind and the memory curve, at most
/// 2000 points that keep every maximum), "streams", "labels" and "spans"
/// ([class, stream, start_s, end_s, label] with tasks closer than 1/2000 of
/// the step merged). Needs the trace and the memory curves recorded.
std::string getStepPlotJson(const Program &program, const SimResult &result,
                            const ReportContext &context);

/// The step page: the timeline per device class (compute and communication
/// streams; a pipeline stage is a class), busy / comm / idle per class, the
/// memory curves, the breakdown at the peak and the top ops.
void writeReportHtml(std::ostream &os, const Program &program,
                     const SimResult &result, const ReportContext &context);

} // namespace sim
} // namespace distir

#endif // DISTIR_SIMULATOR_HTML_H
