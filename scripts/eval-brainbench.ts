import { runEval } from './eval-report.js';

runEval('BrainBench (know-to-ask + push)', 'brainbench');
