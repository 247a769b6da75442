/**
 * `<schema>.decom_append(stream, expected, events, reserve, release)`: the whole PostgreSQL append in one
 * statement (so one round trip). Created by `PostgresEventStore.init()` under the append lock.
 *
 * - `expected`: `'any' | 'no_stream' | 'stream_exists' | '<revision>'` (`'-1'` means no stream).
 * - `events`: `[{ id, type, data, metadata }]`; `reserve`: `[{ key, holder }]`; `release`: keys.
 * - Returns `{ kind: 'appended', next, position }`, or writes nothing and returns
 *   `{ kind: 'decide', tip, stored }` when the expected revision does not hold (the caller's `decideAppend`
 *   then tells a conflict, a duplicate and an exact retry apart).
 * - An id that is already stored, with the expected revision holding (an exact retry with `any`, or a
 *   reused id), fails the INSERT with unique_violation 23505 on `<table>_id_key`: the statement rolls back
 *   and the caller reads the tip and the stored ids afterwards (postgres-event-store.ts). Checking the ids
 *   up front cost every append a second lookup of the batch (half of a batch's time), for
 *   the rare retry; the unique index does that check anyway.
 * - A reserved key held by another holder or stream raises SQLSTATE `DCR01` with the holder as JSON in
 *   DETAIL; the raise rolls the statement back, so nothing of the append stays.
 *
 * Gap safety (postgres-event-store.ts): the advisory lock is taken by its own statement inside
 * the function, and a VOLATILE function's every statement takes a fresh snapshot under READ COMMITTED,
 * so the reads after the lock see every append committed before we got it.
 */
export const RESERVATION_TAKEN_SQLSTATE = 'DCR01';

/** @param lockStatement `PERFORM pg_advisory_xact_lock(...)` of the schema's append lock. */
export function appendFunctionSql(schema: string, table: string, reservations: string, lockStatement: string, channel: string): string {
  const quotedSchema = `"${schema.replace(/"/g, '""')}"`;
  const channelLiteral = `'${channel.replace(/'/g, "''")}'`;
  return `
CREATE OR REPLACE FUNCTION ${quotedSchema}.decom_append(p_stream text, p_expected text, p_events jsonb, p_reserve jsonb, p_release text[])
RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $decom$
DECLARE
  v_tip_revision integer;
  v_tip_position bigint;
  v_stored jsonb;
  v_ids text[];
  v_head bigint;
  v_count integer := jsonb_array_length(p_events);
  v_first integer;
  v_holds boolean;
  v_reservation record;
  v_taken record;
BEGIN
  ${lockStatement};
  SELECT revision, position INTO v_tip_revision, v_tip_position FROM ${table} WHERE stream = p_stream ORDER BY revision DESC LIMIT 1;
  v_holds := CASE
    WHEN p_expected = 'any' THEN true
    WHEN p_expected IN ('no_stream', '-1') THEN v_tip_revision IS NULL
    WHEN p_expected = 'stream_exists' THEN v_tip_revision IS NOT NULL
    ELSE v_tip_revision IS NOT DISTINCT FROM p_expected::integer
  END;
  IF v_count = 0 OR NOT v_holds THEN
    -- The ids as an array first: \`id = ANY(<array variable>)\` probes the id index once per event, where
    -- \`id IN (SELECT ... jsonb_array_elements ...)\` was planned as a hash join over a scan of the whole table.
    v_ids := ARRAY(SELECT e->>'id' FROM jsonb_array_elements(p_events) AS e);
    SELECT coalesce(jsonb_agg(jsonb_build_object('id', id, 'stream', stream, 'revision', revision, 'position', position)), '[]'::jsonb)
      INTO v_stored FROM ${table} WHERE id = ANY(v_ids);
    RETURN jsonb_build_object(
      'kind', 'decide',
      'tip', CASE WHEN v_tip_revision IS NULL THEN NULL ELSE jsonb_build_object('revision', v_tip_revision, 'position', v_tip_position) END,
      'stored', v_stored);
  END IF;
  SELECT coalesce(max(position), 0) INTO v_head FROM ${table};
  v_first := coalesce(v_tip_revision, -1) + 1;
  INSERT INTO ${table} (position, id, stream, revision, type, data, metadata, recorded_time)
    SELECT v_head + e.n, e.value->>'id', p_stream, v_first + e.n::integer - 1, e.value->>'type', e.value->'data', e.value->'metadata', clock_timestamp()
    FROM jsonb_array_elements(p_events) WITH ORDINALITY AS e(value, n);
  FOR v_reservation IN SELECT r->>'key' AS key, r->>'holder' AS holder FROM jsonb_array_elements(p_reserve) AS r LOOP
    INSERT INTO ${reservations} (key, holder, stream, position)
      VALUES (v_reservation.key, v_reservation.holder, p_stream, v_head + v_count)
      ON CONFLICT (key) DO NOTHING;
    IF NOT FOUND THEN
      SELECT holder, stream INTO v_taken FROM ${reservations} WHERE key = v_reservation.key;
      IF v_taken.holder <> v_reservation.holder OR v_taken.stream <> p_stream THEN
        RAISE EXCEPTION 'reservation % is taken', v_reservation.key USING
          ERRCODE = '${RESERVATION_TAKEN_SQLSTATE}',
          DETAIL = jsonb_build_object('key', v_reservation.key, 'holder', v_taken.holder, 'stream', v_taken.stream)::text;
      END IF;
    END IF;
  END LOOP;
  IF cardinality(p_release) > 0 THEN
    DELETE FROM ${reservations} WHERE key = ANY(p_release) AND stream = p_stream;
  END IF;
  PERFORM pg_notify(${channelLiteral}, (v_head + v_count)::text);
  RETURN jsonb_build_object('kind', 'appended', 'next', v_first + v_count - 1, 'position', v_head + v_count);
END
$decom$;`;
}
