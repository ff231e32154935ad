/** Function words that are never an entity, even capitalised. Lower-case. */
export const HARD_STOPWORDS: ReadonlySet<string> = new Set([
  'i', "i'm", "i've", "i'll", 'you', "you're", 'he', 'she', 'it', "it's", 'we', "we're", 'they', "they're",
  'me', 'him', 'her', 'us', 'them', 'my', 'your', 'his', 'their', 'our', 'mine', 'yours', 'hers', 'theirs',
  'ours', 'this', 'that', 'these', 'those', 'who', 'whom', 'the', 'a', 'an', 'and', 'or', 'but', 'so', 'if',
  'as', 'at', 'by', 'for', 'in', 'of', 'on', 'to', 'up', 'with', 'from', 'into', 'over', 'than', 'then',
  'also', 'just', 'what', 'when', 'where', 'why', 'how', 'which', 'whose', 'can', 'could', 'should', 'would',
  'will', 'shall', 'may', 'might', 'must', 'do', 'does', 'did', 'is', 'are', 'am', 'was', 'were', 'be', 'been',
  'being', 'has', 'have', 'had', 'hi', 'hey', 'hello', 'thanks', 'thank', 'please', 'yes', 'no', 'ok', 'okay',
  'sure', 'maybe', 'well', 'oh', 'let', "let's", 'lets',
]);

/**
 * Frequent words that get capitalised at sentence start: dropped as single-token
 * strong candidates unless seen mid-sentence, and never weak candidates. Lower-case.
 */
export const SOFT_COMMON_WORDS: ReadonlySet<string> = new Set([
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october',
  'november', 'december', 'today', 'tomorrow', 'yesterday', 'now', 'soon', 'later', 'tonight', 'morning',
  'afternoon', 'evening', 'week', 'month', 'year', 'meeting', 'call', 'note', 'task', 'here', 'there',
  'every', 'some', 'any', 'all', 'one', 'two', 'three', 'first', 'last', 'next', 'new', 'old', 'good', 'bad',
  'great', 'nice', 'thing', 'something', 'anything',
]);
