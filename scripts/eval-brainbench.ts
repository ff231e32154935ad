import { runEval } from './eval-report.js';

await runEval('BrainBench (know-to-ask + push)', 'brainbench');
