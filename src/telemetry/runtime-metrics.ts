import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { metrics } from '@opentelemetry/api';

import { SCOPE } from './attributes.js';

/**
 * Process and runtime metrics under the OpenTelemetry semantic-convention names
 * (process.*, v8js.*, nodejs.eventloop.*): what an operator needs to size a
 * replica and to tell a slow ask from a starved event loop. Read at each
 * collection (a scrape), so they cost nothing between scrapes.
 */
export function startRuntimeMetrics(): { stop(): void } {
  const meter = metrics.getMeter(SCOPE.runtime);
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  let lastUtilization = performance.eventLoopUtilization();

  const cpu = meter.createObservableCounter('process.cpu.time', { unit: 's', description: 'CPU time of the process, by mode' });
  const memory = meter.createObservableUpDownCounter('process.memory.usage', {
    unit: 'By',
    description: 'Resident set size of the process',
  });
  const uptime = meter.createObservableGauge('process.uptime', { unit: 's', description: 'Time since the process started' });
  const heapUsed = meter.createObservableGauge('v8js.memory.heap.used', { unit: 'By', description: 'V8 heap in use, by heap space' });
  const heapLimit = meter.createObservableGauge('v8js.memory.heap.limit', {
    unit: 'By',
    description: 'Largest size the V8 heap may grow to',
  });
  const delay = {
    p50: meter.createObservableGauge('nodejs.eventloop.delay.p50', {
      unit: 's',
      description: 'Event loop delay, median since the last collection',
    }),
    p99: meter.createObservableGauge('nodejs.eventloop.delay.p99', {
      unit: 's',
      description: 'Event loop delay, 99th percentile since the last collection',
    }),
    max: meter.createObservableGauge('nodejs.eventloop.delay.max', {
      unit: 's',
      description: 'Event loop delay, largest since the last collection',
    }),
  };
  const utilization = meter.createObservableGauge('nodejs.eventloop.utilization', {
    unit: '1',
    description: 'Share of time the event loop was busy since the last collection',
  });

  const collect: Parameters<typeof meter.addBatchObservableCallback>[0] = (result) => {
    const usage = process.cpuUsage();
    result.observe(cpu, usage.user / 1e6, { 'cpu.mode': 'user' });
    result.observe(cpu, usage.system / 1e6, { 'cpu.mode': 'system' });
    result.observe(memory, process.memoryUsage.rss());
    result.observe(uptime, process.uptime());
    for (const space of getHeapSpaceStatistics())
      result.observe(heapUsed, space.space_used_size, { 'v8js.heap.space.name': space.space_name });
    result.observe(heapLimit, getHeapStatistics().heap_size_limit);
    // The histogram is in nanoseconds; with no sample yet its percentiles are 0.
    result.observe(delay.p50, loopDelay.percentile(50) / 1e9);
    result.observe(delay.p99, loopDelay.percentile(99) / 1e9);
    result.observe(delay.max, loopDelay.max / 1e9);
    loopDelay.reset();
    const now = performance.eventLoopUtilization();
    result.observe(utilization, performance.eventLoopUtilization(now, lastUtilization).utilization);
    lastUtilization = now;
  };
  const observables = [cpu, memory, uptime, heapUsed, heapLimit, delay.p50, delay.p99, delay.max, utilization];
  meter.addBatchObservableCallback(collect, observables);
  return {
    stop() {
      meter.removeBatchObservableCallback(collect, observables);
      loopDelay.disable();
    },
  };
}
