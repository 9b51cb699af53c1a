-- What Candor could not answer, for KB owners. Works on PGlite and PostgreSQL (the same schema).

-- 1. The most frequent refused questions of the last 7 days, with their deciding reason and KB version.
select lower(question) as question, reason, kb_version, count(*) as times, max(created_at) as last_asked
from interactions
where decision = 'abstain' and channel <> 'eval' and created_at > now() - interval '7 days'
group by lower(question), reason, kb_version
order by times desc, last_asked desc
limit 50;

-- 2. Refusals by reason per day: a new reason appearing, or one growing, is a gap or a fault.
select date_trunc('day', created_at) as day, reason, count(*) as refusals
from interactions
where decision = 'abstain' and channel <> 'eval' and created_at > now() - interval '30 days'
group by 1, 2
order by 1 desc, 3 desc;

-- 3. Questions on a topic the KB covers but cannot answer specifically (near misses): review these first.
select question, reason, top_score, created_at
from interactions
where decision = 'abstain' and reason in ('low_coverage', 'low_margin', 'answer_type_mismatch', 'llm_unanswerable')
  and created_at > now() - interval '7 days'
order by top_score desc nulls last
limit 50;
