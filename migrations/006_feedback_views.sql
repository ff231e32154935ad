-- Views for BI tools: the same figures `volunteer-context --stats` and `brainstream stats` print.

-- One row per retained volunteered event with both attributions, computed exactly as `--stats` does.
CREATE OR REPLACE VIEW volunteer_usage_events AS
SELECT e.id, e.source_id, e.slug, e.confidence, e.match_arm, e.channel, e.session_id, e.turn, e.volunteered_at,
       EXISTS (SELECT 1 FROM pages p
                WHERE p.source_id = e.source_id AND p.slug = e.slug AND NOT p.deleted
                  AND p.last_retrieved_at > e.volunteered_at) AS used_approximate,
       (e.session_id IS NOT NULL AND EXISTS (
          SELECT 1 FROM page_retrievals r
           WHERE r.source_id = e.source_id AND r.slug = e.slug AND r.session_id = e.session_id
             AND r.retrieved_at > e.volunteered_at)) AS used_attributed
  FROM context_volunteer_events e;

-- The usage-statistics projection with precisions (3 decimals, 0 when nothing was volunteered).
CREATE OR REPLACE VIEW volunteer_usage_daily AS
SELECT day, match_arm, channel, source_id, volunteered, used_approximate, used_attributed,
       CASE WHEN volunteered = 0 THEN 0 ELSE round(used_approximate::numeric / volunteered, 3) END AS precision_approximate,
       CASE WHEN volunteered = 0 THEN 0 ELSE round(used_attributed::numeric / volunteered, 3) END AS precision_attributed
  FROM usage_stats;

-- Per arm and channel over the whole retained history (the --stats grouping without a window).
CREATE OR REPLACE VIEW volunteer_precision_by_arm AS
SELECT match_arm, channel, sum(volunteered)::int AS volunteered,
       sum(used_approximate)::int AS used_approximate, sum(used_attributed)::int AS used_attributed,
       CASE WHEN sum(volunteered) = 0 THEN 0 ELSE round(sum(used_approximate)::numeric / sum(volunteered), 3) END AS precision_approximate,
       CASE WHEN sum(volunteered) = 0 THEN 0 ELSE round(sum(used_attributed)::numeric / sum(volunteered), 3) END AS precision_attributed
  FROM usage_stats
 GROUP BY match_arm, channel;
