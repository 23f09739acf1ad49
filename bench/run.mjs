// `npm run bench`: the three figures of issue 2, measured in one run on this machine, against
// their targets. Not part of the tests. Run after a build (the npm script builds first).
import { cpus, platform, release } from 'node:os';
import { measureKillLatency } from './kill-latency.mjs';
import { measureOverhead } from './overhead.mjs';
import { measureThroughput } from './throughput.mjs';

const fixed = (value, digits = 1) => value.toFixed(digits);
const verdict = (ok) => (ok ? 'meets target' : 'MISSES target');

console.log(
  `statecraft benchmarks — ${new Date().toISOString()} — ${platform()} ${release()}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`,
);

const overhead = await measureOverhead();
console.log(`\n(a) supervisor overhead (${overhead.rounds} rounds, adapter emitting 10 events; bare child_process median ${fixed(overhead.bareMedianMs)} ms)`);
for (const [label, figure] of [
  [`auto (${overhead.auto.mechanism})`, overhead.auto],
  ['process-group', overhead.processGroup],
]) {
  const ok = figure.ratio <= 1.5 && figure.addedMs <= 50;
  console.log(
    `    ${label.padEnd(22)} median ${fixed(figure.medianMs)} ms  ratio ${fixed(figure.ratio, 2)} (≤ 1.5)  added ${fixed(figure.addedMs)} ms (≤ 50)  ${verdict(ok)}`,
  );
}

const throughput = measureThroughput();
console.log(
  `\n(b) stream throughput (${fixed(throughput.streamMB)} MB, ${throughput.events} events, ~${Math.round(throughput.averageLineBytes)} bytes a line)`,
);
console.log(`    readEventStream        ${fixed(throughput.readerMBps)} MB/s (≥ 100)  ${verdict(throughput.readerMBps >= 100)}`);
console.log(`    peak RSS               ${fixed(throughput.readerPeakRssMB)} MB (≤ 150)  ${verdict(throughput.readerPeakRssMB <= 150)}`);
console.log(
  `    cat file > /dev/null   ${fixed(throughput.catMBps)} MB/s (the physical limit); reader at ${fixed((100 * throughput.readerMBps) / throughput.catMBps)} % of it`,
);

const latency = await measureKillLatency();
console.log('\n(c) kill latency, deadline to every process of the attempt gone (setsid descendant included)');
for (const [path, figure] of Object.entries(latency)) {
  if ('skipped' in figure) console.log(`    ${path.padEnd(22)} not measured: ${figure.skipped}`);
  else
    console.log(
      `    ${path.padEnd(22)} median ${fixed(figure.medianMs)} ms (≤ 250), max ${fixed(figure.maxMs)} ms over ${figure.rounds} rounds  ${verdict(figure.medianMs <= 250)}`,
    );
}

console.log(`\n${JSON.stringify({ overhead, throughput, latency })}`);

// Issue 3's figures (statecraft run end to end; run list over 10,000 attempts).
await import('./run-statecraft.mjs');

// Issue 9's figure: the supervisor's memory under a flood of valid refusal events.
const { measureRefusalFlood } = await import('./refusal-flood.mjs');
const flood = await measureRefusalFlood();
console.log(`\n(f) statecraft run under a refusal flood (${fixed(flood.streamMiB)} MiB, ${flood.refusals} refusal events of 1 KiB)`);
console.log(`    supervisor peak RSS    ${fixed(flood.runPeakRssMB)} MB (≤ 150)  ${verdict(flood.runPeakRssMB <= 150)}  run took ${fixed(flood.runSeconds)} s`);
console.log(`    outcome record         chain of ${flood.chainBytes} bytes (intent + outcome)`);
console.log(
  `    run list / run show    ${fixed(flood.listMs)} ms at ${fixed(flood.listPeakRssMB)} MB / ${fixed(flood.showMs)} ms at ${fixed(flood.showPeakRssMB)} MB (run show re-digests the 600 MiB stream)`,
);
console.log(`\n${JSON.stringify({ refusalFlood: flood })}`);

// Issue 12's figure (statecraft accept's overhead).
await (await import('./accept-overhead.mjs')).reportAcceptOverhead();

// Issue 32's figure: export and verify of an attempt with a 200 MB stream.
await (await import('./export-verify.mjs')).reportExportVerify();

// Issue 33's figure: several attempts of one run at once.
await (await import('./many-attempts.mjs')).reportManyAttempts();

// Issue 33's figure: collect of 32 bundles of about 1 MB each.
await (await import('./collect.mjs')).reportCollect();
