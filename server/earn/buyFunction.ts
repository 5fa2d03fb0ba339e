import { sql } from 'kysely';

/*
 * The buy as SQL functions: code, not schema. `migrateToLatest` replaces them on every start
 * (listed in server/sqlFunctions.ts), after the migrations, so changing this text changes the
 * functions. A signature cannot change here (`create or replace` would add a second function
 * beside the old one): a migration drops the old one first, as 0020 did when `earn_buy` took
 * `p_auto_renew`. A new parameter comes last, with a default, so older calls still reach it
 * (bench/pgbench.ts calls `earn_buy` by its first seventeen).
 */

/**
 * A subscription in one statement (issue 16): `earn_buy` claims the Idempotency-Key, checks
 * the minimum and the inviter, consumes the day's quota, inserts the order, posts the ledger
 * entry through the ledger's `ledger_move` (server/ledger/functions.ts: earning credited,
 * wallet debited under the balance CHECK), writes the holder's notice of it and stores the answer, all in the one statement's
 * transaction. Refusals roll back what the block wrote and store their own answer, chosen from
 * `p_refusals` (already in the caller's language), so that a replay of the key is answered the
 * same way. The checks and their order are those of `buy` in server/earn/service.ts, which a
 * property test keeps as the oracle.
 *
 * Returns one row: outcome ('ok', 'replay', a refusal's error name, or IDEMPOTENCY_MISMATCH /
 * IDEMPOTENCY_BUSY, which store nothing), the HTTP status and the answer's body.
 */
export const EARN_BUY = sql`
  create or replace function earn_buy(
    p_user bigint, p_key text, p_hash text, p_now timestamptz, p_today date,
    p_product text, p_amount bigint, p_power bigint, p_coefficient text, p_status text,
    p_start_day date, p_cycle_start timestamptz, p_matures_day date,
    p_minimum bigint, p_quota bigint, p_answer jsonb, p_refusals jsonb,
    p_auto_renew boolean default false
  ) returns table (outcome text, status integer, body jsonb)
  language plpgsql as $fn$
  declare
    v_stored record;
    v_inviter bigint;
    v_used bigint;
    v_order bigint;
    v_refusal text;
    v_answer jsonb;
    v_entry bigint;
  begin
    insert into idempotency_keys (user_id, key, request_hash, created_at)
    values (p_user, p_key, p_hash, p_now)
    on conflict (user_id, key) do nothing;
    if not found then
      select k.request_hash, k.response_status, k.response_body into v_stored
      from idempotency_keys k where k.user_id = p_user and k.key = p_key;
      if v_stored.request_hash <> p_hash then
        return query select 'IDEMPOTENCY_MISMATCH'::text, null::integer, null::jsonb;
      elsif v_stored.response_status is null then
        return query select 'IDEMPOTENCY_BUSY'::text, null::integer, null::jsonb;
      else
        return query select 'replay'::text, v_stored.response_status, v_stored.response_body;
      end if;
      return;
    end if;

    if p_amount < p_minimum then
      v_refusal := 'BELOW_MINIMUM';
    else
      select u.inviter_id into v_inviter from users u where u.id = p_user;
      if v_inviter is null then v_refusal := 'BIND_FIRST'; end if;
    end if;

    if v_refusal is null then
      begin
        if p_amount > p_quota then raise exception 'quota' using errcode = 'P0001'; end if;
        insert into daily_quota as q (user_id, day, used) values (p_user, p_today, p_amount)
        on conflict (user_id, day) do update set used = q.used + excluded.used
        where q.used + excluded.used <= p_quota;
        if not found then raise exception 'quota' using errcode = 'P0001'; end if;

        insert into orders (user_id, product, principal, power, coefficient, status, start_day,
                            created_at, cycle_start, matures_day, auto_renew)
        values (p_user, p_product, p_amount, p_power, p_coefficient, p_status, p_start_day,
                p_now, p_cycle_start, p_matures_day, p_auto_renew)
        returning id into v_order;
        -- A wallet short of the amount (or none at all) raises check_violation.
        v_entry := ledger_move('subscribe', 'order:' || v_order, p_now, 'AIC',
                               p_user, 'wallet', p_user, 'earning', p_amount);
        -- The holder's record of it, written read (server/notify/notices.ts, notifyOwnMove).
        insert into notifications (user_id, kind, key, params, created_at, read_at)
        values (p_user, 'subscribed', 'entry:' || v_entry,
                jsonb_build_object('order', v_order::text, 'product', p_product, 'amount', trim_scale(p_amount::numeric / 100000000)::text),
                p_now, p_now);
      exception
        when check_violation then
          v_refusal := 'BALANCE';
        when raise_exception then
          select q.used into v_used from daily_quota q where q.user_id = p_user and q.day = p_today;
          v_refusal := case when coalesce(v_used, 0) >= p_quota then 'QUOTA' else 'DAILY_QUOTA' end;
      end;
    end if;

    if v_refusal is not null then
      v_answer := p_refusals -> v_refusal;
      update idempotency_keys k
      set response_status = (v_answer ->> 'status')::integer, response_body = v_answer -> 'body'
      where k.user_id = p_user and k.key = p_key;
      return query select v_refusal, (v_answer ->> 'status')::integer, v_answer -> 'body';
      return;
    end if;

    v_answer := jsonb_set(p_answer, '{data,id}', to_jsonb(v_order::text));
    update idempotency_keys k set response_status = 200, response_body = v_answer
    where k.user_id = p_user and k.key = p_key;
    return query select 'ok'::text, 200, v_answer;
  end
  $fn$`;

/**
 * Group commit for buys (issue 16): the buys that reach one process within a millisecond go to
 * the database as one statement and one commit. Each item runs `earn_buy` as it would alone, so
 * it keeps its own checks, refusal, stored answer and Idempotency-Key (a refusal rolls back only
 * its own writes, inside `earn_buy`'s block); items are taken in user order, so two batches lock
 * the same holders' rows in the same order.
 *
 * `p_lock_wait` (a duration, e.g. '100ms'; null: as long as it takes): how long an item may wait
 * for a row another transaction holds, such as a holder's earning account while a settlement
 * step credits it. An item that would wait longer writes nothing and answers 'LOCKED', so the
 * batch goes on with the other holders rather than making them all wait; the caller sends it
 * again to wait as long as it takes.
 */
export const EARN_BUY_BATCH_WITHIN = sql`
  create or replace function earn_buy_batch_within(p_items jsonb, p_lock_wait text)
  returns table (idx integer, outcome text, status integer, body jsonb)
  language plpgsql as $fn$
  declare
    v_item record;
    v_result record;
    v_was text := current_setting('lock_timeout');
  begin
    if p_lock_wait is not null then perform set_config('lock_timeout', p_lock_wait, true); end if;
    for v_item in
      select (e.ordinality - 1)::integer as i, e.value as v
      from jsonb_array_elements(p_items) with ordinality as e
      order by (e.value ->> 'user')::bigint, e.ordinality
    loop
      idx := v_item.i;
      begin
        select * into v_result from earn_buy(
          (v_item.v ->> 'user')::bigint, v_item.v ->> 'key', v_item.v ->> 'hash',
          (v_item.v ->> 'now')::timestamptz, (v_item.v ->> 'today')::date,
          v_item.v ->> 'product', (v_item.v ->> 'amount')::bigint, (v_item.v ->> 'power')::bigint,
          v_item.v ->> 'coefficient', v_item.v ->> 'status', (v_item.v ->> 'startDay')::date,
          (v_item.v ->> 'cycleStart')::timestamptz, (v_item.v ->> 'maturesDay')::date,
          (v_item.v ->> 'minimum')::bigint, (v_item.v ->> 'quota')::bigint,
          v_item.v -> 'answer', v_item.v -> 'refusals', coalesce((v_item.v ->> 'autoRenew')::boolean, false));
        outcome := v_result.outcome;
        status := v_result.status;
        body := v_result.body;
      exception when lock_not_available then
        outcome := 'LOCKED';
        status := null;
        body := null;
      end;
      return next;
    end loop;
    perform set_config('lock_timeout', v_was, true);
  end
  $fn$`;

/** The batch, each item waiting as long as it takes: a buy sent alone (server/earn/subscribe.ts). */
export const EARN_BUY_BATCH = sql`
  create or replace function earn_buy_batch(p_items jsonb)
  returns table (idx integer, outcome text, status integer, body jsonb)
  language sql as $fn$ select * from earn_buy_batch_within(p_items, null) $fn$`;
