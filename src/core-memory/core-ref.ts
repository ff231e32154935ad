export const DEFAULT_SOURCE = 'default';

/** How a page is named to the user: `<slug>` in the default source, else `<source_id>:<slug>`. */
export const coreRef = (sourceId: string, slug: string): string => (sourceId === DEFAULT_SOURCE ? slug : `${sourceId}:${slug}`);

/** A command about one page, ready to run: `brainstream core diff --source work notes/x`. */
export const pageCommand = (command: string, sourceId: string, slug: string): string =>
  `brainstream ${command} ${sourceId === DEFAULT_SOURCE ? '' : `--source ${sourceId} `}${slug}`;
