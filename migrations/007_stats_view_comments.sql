-- What each column of the statistics views means, readable from psql (\d+) and BI tools.

COMMENT ON VIEW volunteer_usage_events IS
  'One row per volunteered page still within retention, with whether it was used afterwards under both attributions.';
COMMENT ON COLUMN volunteer_usage_events.id IS 'Event id of the delivery; the same page for the same turn of a session always has the same id.';
COMMENT ON COLUMN volunteer_usage_events.source_id IS 'Source (brain) the volunteered page belongs to.';
COMMENT ON COLUMN volunteer_usage_events.slug IS 'Slug of the volunteered page within its source.';
COMMENT ON COLUMN volunteer_usage_events.confidence IS 'Confidence of the match that volunteered the page, between 0 and 1.';
COMMENT ON COLUMN volunteer_usage_events.match_arm IS 'How the page was matched: alias, title, title-surname, cjk-title or slug-suffix.';
COMMENT ON COLUMN volunteer_usage_events.channel IS 'Where the page was delivered: op (one-shot command or MCP tool), watch, reflex, or an agent hook (claude-code, codex, opencode).';
COMMENT ON COLUMN volunteer_usage_events.session_id IS 'Agent session the page was delivered to; NULL for deliveries outside a session.';
COMMENT ON COLUMN volunteer_usage_events.turn IS 'Position of the triggering turn within its session; NULL outside a session.';
COMMENT ON COLUMN volunteer_usage_events.volunteered_at IS 'Event time of the delivery (when the turn happened, not when it was processed).';
COMMENT ON COLUMN volunteer_usage_events.used_approximate IS 'True when the page, still live, was retrieved by anyone after it was volunteered.';
COMMENT ON COLUMN volunteer_usage_events.used_attributed IS 'True when the page was retrieved in the same session after it was volunteered.';

COMMENT ON VIEW volunteer_usage_daily IS
  'Volunteered and used pages per UTC day, match arm, channel and source, with precisions; the figures the stats command prints.';
COMMENT ON COLUMN volunteer_usage_daily.day IS 'UTC day of the deliveries (by event time).';
COMMENT ON COLUMN volunteer_usage_daily.match_arm IS 'How the pages were matched: alias, title, title-surname, cjk-title or slug-suffix.';
COMMENT ON COLUMN volunteer_usage_daily.channel IS 'Where the pages were delivered: op (one-shot command or MCP tool), watch, reflex, or an agent hook (claude-code, codex, opencode).';
COMMENT ON COLUMN volunteer_usage_daily.source_id IS 'Source (brain) the pages belong to.';
COMMENT ON COLUMN volunteer_usage_daily.volunteered IS 'Pages volunteered that day.';
COMMENT ON COLUMN volunteer_usage_daily.used_approximate IS 'Of those, pages retrieved by anyone afterwards while still live.';
COMMENT ON COLUMN volunteer_usage_daily.used_attributed IS 'Of those, pages retrieved in the same session afterwards.';
COMMENT ON COLUMN volunteer_usage_daily.precision_approximate IS 'used_approximate / volunteered, 3 decimals; 0 when nothing was volunteered.';
COMMENT ON COLUMN volunteer_usage_daily.precision_attributed IS 'used_attributed / volunteered, 3 decimals; 0 when nothing was volunteered.';

COMMENT ON VIEW volunteer_precision_by_arm IS
  'Volunteered and used pages per match arm and channel over the whole retained history, with precisions.';
COMMENT ON COLUMN volunteer_precision_by_arm.match_arm IS 'How the pages were matched: alias, title, title-surname, cjk-title or slug-suffix.';
COMMENT ON COLUMN volunteer_precision_by_arm.channel IS 'Where the pages were delivered: op (one-shot command or MCP tool), watch, reflex, or an agent hook (claude-code, codex, opencode).';
COMMENT ON COLUMN volunteer_precision_by_arm.volunteered IS 'Pages volunteered within retention.';
COMMENT ON COLUMN volunteer_precision_by_arm.used_approximate IS 'Of those, pages retrieved by anyone afterwards while still live.';
COMMENT ON COLUMN volunteer_precision_by_arm.used_attributed IS 'Of those, pages retrieved in the same session afterwards.';
COMMENT ON COLUMN volunteer_precision_by_arm.precision_approximate IS 'used_approximate / volunteered, 3 decimals; 0 when nothing was volunteered.';
COMMENT ON COLUMN volunteer_precision_by_arm.precision_attributed IS 'used_attributed / volunteered, 3 decimals; 0 when nothing was volunteered.';
