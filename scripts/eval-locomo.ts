import { runEval } from './eval-report.js';

await runEval('LoCoMo (development half)', 'locomo');
