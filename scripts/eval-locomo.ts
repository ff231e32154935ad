import { runEval } from './eval-report.js';

runEval('LoCoMo (development half)', 'locomo');
