// The step page of dist-sim --html (lib/Simulator/Html.cpp): DATA is
// getStepPlotJson's object.
(function () {
  const report = DATA.report;
  const classes = DATA.classes;
  const names = classes.map((c) => 'devices ' + c.devices);
  document.getElementById('summary').textContent =
      'Cluster ' + report.cluster + ': step time ' +
      distirMs(report.step_time_s).toFixed(3) + ' ms, peak memory ' +
      distirGiB(report.peak_memory_bytes).toFixed(2) + ' GiB of ' +
      distirGiB(report.memory_capacity_bytes).toFixed(2) + ' GiB' +
      (report.fits ? '' : ' (does not fit)') + ', ' + classes.length +
      ' classes of identical devices (a pipeline stage is one).';

  // Timeline: one row per (device class, stream) that has tasks.
  const rows = [];
  const rowOf = {};
  for (const span of DATA.spans) {
    const key = span[0] + ':' + span[1];
    if (!(key in rowOf)) {
      rowOf[key] = rows.length;
      rows.push({cls: span[0], stream: span[1]});
    }
  }
  rows.sort((a, b) => a.cls - b.cls || a.stream - b.stream);
  const rowLabels = rows.map((r) => names[r.cls] + ' · ' + DATA.streams[r.stream]);
  const computeSpans = [], commSpans = [];
  for (const span of DATA.spans) {
    const row = rows.findIndex((r) => r.cls === span[0] && r.stream === span[1]);
    const point = {x: [distirMs(span[2]), distirMs(span[3])], y: rowLabels[row],
                   op: DATA.labels[span[4]]};
    (span[1] === 0 ? computeSpans : commSpans).push(point);
  }
  distirChart('timeline', {
    type: 'bar',
    data: {labels: rowLabels, datasets: [
      {label: 'compute', data: computeSpans, backgroundColor: DISTIR_COLORS[0],
       grouped: false, barPercentage: 0.8},
      {label: 'communication', data: commSpans, backgroundColor: DISTIR_COLORS[1],
       grouped: false, barPercentage: 0.8}]},
    options: {
      indexAxis: 'y',
      plugins: {title: distirTitle('Timeline per device class and stream (gaps: idle)'),
                tooltip: {callbacks: {label: (item) => item.raw.op + ': ' +
                    item.raw.x[0].toFixed(3) + '–' + item.raw.x[1].toFixed(3) + ' ms'}}},
      scales: {x: {type: 'linear', min: 0, max: distirMs(report.step_time_s),
                   title: distirTitle('time (ms)')},
               y: {title: distirTitle('device class · stream')}}}
  }, Math.max(200, 60 + 28 * rowLabels.length));

  distirChart('busy', {
    type: 'bar',
    data: {labels: names, datasets: [
      {label: 'compute', data: classes.map((c) => distirMs(c.compute_s)),
       backgroundColor: DISTIR_COLORS[0]},
      {label: 'communication', data: classes.map((c) => distirMs(c.comm_s)),
       backgroundColor: DISTIR_COLORS[1]},
      {label: 'idle', data: classes.map((c) => distirMs(c.idle_s)),
       backgroundColor: DISTIR_COLORS[9]}]},
    options: {plugins: {title: distirTitle('Busy, communication and idle time per device class')},
              scales: {x: {title: distirTitle('device class')},
                       y: {title: distirTitle('time (ms)')}}}
  });

  const memorySets = classes.map((c, i) => ({
    label: names[i], showLine: true, stepped: true, pointRadius: 0,
    borderColor: DISTIR_COLORS[i % DISTIR_COLORS.length],
    data: c.memory.map((p) => ({x: distirMs(p[0]), y: distirGiB(p[1])}))}));
  // The device memory line only when it is on the same scale as the curves.
  const capacityShown = report.memory_capacity_bytes > 0 &&
      report.memory_capacity_bytes <= 4 * report.peak_memory_bytes;
  if (capacityShown) memorySets.push({label: 'device memory', showLine: true, pointRadius: 0,
                   borderDash: [6, 4], borderColor: '#d62728',
                   data: [{x: 0, y: distirGiB(report.memory_capacity_bytes)},
                          {x: distirMs(report.step_time_s),
                           y: distirGiB(report.memory_capacity_bytes)}]});
  distirChart('memory', {
    type: 'scatter', data: {datasets: memorySets},
    options: {plugins: {title: distirTitle('Memory in use over the step' +
                  (capacityShown ? '' : ' (device memory ' +
                   distirGiB(report.memory_capacity_bytes).toFixed(0) +
                   ' GiB, off the scale)'))},
              scales: {x: {max: distirMs(report.step_time_s),
                           title: distirTitle('time (ms)')},
                       y: {min: 0, title: distirTitle('memory (GiB)')}}}
  });

  const kinds = Object.keys(classes.length ? classes[0].memory_at_peak : {});
  distirChart('breakdown', {
    type: 'bar',
    data: {labels: names, datasets: kinds.map((kind, k) => ({
      label: kind.replace(/_/g, ' '), backgroundColor: DISTIR_COLORS[k % 10],
      data: classes.map((c) => distirGiB(c.memory_at_peak[kind]))}))},
    options: {plugins: {title: distirTitle('Memory at each class\'s peak, by kind')},
              scales: {x: {stacked: true, title: distirTitle('device class')},
                       y: {stacked: true, title: distirTitle('memory at the peak (GiB)')}}}
  });

  const ops = report.top_ops;
  distirChart('top-ops', {
    type: 'bar',
    data: {labels: ops.map((op) => op.label + ' ×' + op.count), datasets: [
      {label: 'total time', data: ops.map((op) => distirMs(op.total_s)),
       backgroundColor: DISTIR_COLORS[4]}]},
    options: {indexAxis: 'y',
              plugins: {title: distirTitle('Top ops by time (one device\'s view)')},
              scales: {x: {title: distirTitle('total time (ms)')},
                       y: {title: distirTitle('op')}}}
  }, Math.max(200, 60 + 24 * ops.length));
})();
