// Shared by distir's pages (lib/Simulator/Html.cpp): draws a Chart.js chart
// and writes what it shows (axis titles, datasets and their point counts) as
// text under it, so that the page's DOM says what its pictures hold.
Chart.defaults.animation = false;
Chart.defaults.maintainAspectRatio = false;

function distirChart(canvasId, config, height) {
  const canvas = document.getElementById(canvasId);
  canvas.parentElement.style.height = (height || 380) + 'px';
  canvas.parentElement.style.position = 'relative';
  const chart = new Chart(canvas, config);
  const text = document.createElement('figcaption');
  text.className = 'chart-text';
  const scales = config.options && config.options.scales ? config.options.scales : {};
  const axes = Object.keys(scales)
      .filter((key) => scales[key].title && scales[key].title.text)
      .map((key) => key + ' axis: <span class="axis-title">' +
           scales[key].title.text + '</span>');
  const sets = config.data.datasets.map((d) =>
      '<span class="dataset" data-label="' + d.label + '" data-points="' +
      d.data.length + '">' + d.label + ' (' + d.data.length + ')</span>');
  text.innerHTML = (config.options.plugins && config.options.plugins.title ?
      '<b>' + config.options.plugins.title.text + '</b>. ' : '') +
      axes.join('; ') + '. Series: ' + sets.join(', ');
  canvas.parentElement.parentElement.insertBefore(
      text, canvas.parentElement.nextSibling);
  return chart;
}

function distirTitle(text) {
  return {display: true, text: text};
}

const DISTIR_COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f',
                       '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

function distirMs(seconds) { return seconds * 1e3; }
function distirGiB(bytes) { return bytes / 1073741824; }
