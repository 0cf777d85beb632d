export { bucketStart, INTERVALS, type StatsInterval, today, zonedIso } from './buckets';
export { eventRows, hourOf, PING_WON, pingIdOf, type RejectionCategory, rejectionCategory, rollupKind } from './cells';
export { pingWon, rollupRows } from './observer';
export { MAX_STATS_RANGE_DAYS, parseStatsQuery, type StatsQuery } from './params';
export { COUNTED_KINDS, groupRow, type StatsRow } from './rows';
export { createStatsApi, fieldValue, type StatsApi, type StatsResult } from './service';
