// The smoke suite's host in a browser page: the runner calls `runSmoke(config)` (and the real-server test
// `probeCors(target)`) with page.evaluate.
import { probeCors } from './cors-probe.js';
import { smoke } from './smoke.js';

Object.assign(globalThis, { runSmoke: smoke, probeCors });
