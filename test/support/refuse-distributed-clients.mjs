// A module hook for child processes under test: importing the distributed mode's clients
// (kafkajs, postgres) fails, so a command that still loads them eagerly fails visibly.
import { register } from 'node:module';

const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === 'kafkajs' || specifier === 'postgres') throw new Error('refused to load ' + specifier);
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
