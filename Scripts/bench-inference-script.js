#!/usr/bin/env node
'use strict';
// Start-up of rendered inference.js files in Node: the CPU time of evaluating each in a fresh
// fake page (Tests/JavaScript/inference/fake-page.js, webkit bridge), the files taken in turn so
// that a loaded machine slows them alike. Prints the median CPU milliseconds of each file.
//
//   node Scripts/bench-inference-script.js [--runs N] FILE…

const fs = require('node:fs');
const path = require('node:path');
const { createPage } = require(path.join(__dirname, '..', 'Tests', 'JavaScript', 'inference', 'fake-page.js'));

const runsIndex = process.argv.indexOf('--runs');
const runs = runsIndex >= 0 ? Number(process.argv[runsIndex + 1]) : 200;
const files = process.argv.slice(2).filter((argument, index, all) => argument !== '--runs' && all[index - 1] !== '--runs');
if (files.length === 0) {
  console.error('usage: node Scripts/bench-inference-script.js [--runs N] FILE…');
  process.exit(2);
}
const sources = files.map((file) => fs.readFileSync(file, 'utf8'));
const times = files.map(() => []);
for (let run = 0; run < runs; run++) {
  sources.forEach((source, index) => {
    const page = createPage({ bridge: 'webkit' });
    // A comment unique to each run keeps V8 from reusing the previous compilation.
    page.source = `${source}\n//# run ${run}\n`;
    const cpu = process.cpuUsage();
    page.start();
    const used = process.cpuUsage(cpu);
    times[index].push((used.user + used.system) / 1000);
  });
}
files.forEach((file, index) => {
  const sorted = times[index].sort((a, b) => a - b);
  console.log(JSON.stringify({ file, runs, startupCpuMedianMs: Number(sorted[sorted.length >> 1].toFixed(3)) }));
});
