// The page of dist-search --html (lib/Search/Html.cpp): DATA is the --json
// object. Per scenario: step time against peak memory, one point per
// simulated configuration, coloured by parallelism form, the Pareto front
// (no other configuration is both faster and smaller) and the device memory.
(function () {
  function formOf(row) {
    const parts = ['dp', 'tp', 'pp'].filter((axis) => row[axis] > 1);
    return parts.length ? parts.join('×') : 'one device';
  }
  function paretoFront(rows) {
    const sorted = rows.slice().sort((a, b) =>
        a.peak_memory_bytes - b.peak_memory_bytes || a.step_time_s - b.step_time_s);
    const front = [];
    let best = Infinity;
    for (const row of sorted)
      if (row.step_time_s < best) {
        best = row.step_time_s;
        front.push(row);
      }
    return front;
  }
  function wrap(text, width) {
    const lines = [];
    for (let i = 0; i < text.length; i += width)
      lines.push(text.slice(i, i + width));
    return lines;
  }
  const container = document.getElementById('scenarios');
  DATA.scenarios.forEach((scenario, index) => {
    const rows = scenario.configurations;
    const section = document.createElement('section');
    const heading = document.createElement('h2');
    heading.textContent = scenario.model + ' on ' + scenario.cluster + ', ' +
        scenario.devices + ' devices: ' + rows.length +
        ' simulated configurations';
    const figure = document.createElement('figure');
    const holder = document.createElement('div');
    const canvas = document.createElement('canvas');
    canvas.id = 'scenario-' + index;
    holder.appendChild(canvas);
    figure.appendChild(holder);
    section.appendChild(heading);
    section.appendChild(figure);
    container.appendChild(section);

    const point = (row) => ({x: distirGiB(row.peak_memory_bytes),
                             y: distirMs(row.step_time_s), row: row});
    const forms = [...new Set(rows.map(formOf))].sort();
    const datasets = forms.map((form, i) => ({
      label: form, data: rows.filter((row) => formOf(row) === form).map(point),
      backgroundColor: DISTIR_COLORS[i % DISTIR_COLORS.length], pointRadius: 4}));
    datasets.push({label: 'Pareto front', data: paretoFront(rows).map(point),
                   showLine: true, stepped: 'before', pointRadius: 0,
                   borderColor: '#222', borderWidth: 1.5});
    const times = rows.map((row) => distirMs(row.step_time_s));
    const capacity = distirGiB(scenario.memory_capacity_bytes *
                               scenario.max_memory_fraction);
    datasets.push({label: 'device memory', showLine: true, pointRadius: 0,
                   borderDash: [6, 4], borderColor: '#d62728',
                   data: [{x: capacity, y: Math.min(...times, 0)},
                          {x: capacity, y: Math.max(...times, 1e-9)}]});
    distirChart(canvas.id, {
      type: 'scatter', data: {datasets: datasets},
      options: {
        plugins: {
          title: distirTitle('Step time against peak memory per device'),
          tooltip: {callbacks: {label: (item) => item.raw.row ?
              [formOf(item.raw.row) + ': ' + item.raw.y.toFixed(3) + ' ms, ' +
               item.raw.x.toFixed(2) + ' GiB'].concat(
                  wrap(item.raw.row.command, 100)) : item.dataset.label}}},
        // Logarithmic: small configurations and the device memory line on
        // one picture.
        scales: {x: {type: 'logarithmic',
                     title: distirTitle('peak memory per device (GiB)')},
                 y: {title: distirTitle('step time (ms)')}}}
    }, 480);
  });
})();
