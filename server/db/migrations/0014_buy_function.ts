import { type Kysely, sql } from 'kysely';

/**
 * A subscription in one statement (issue 16): the buy used to take eleven round trips inside
 * its transaction. `earn_buy` claims the Idempotency-Key, checks the minimum and the inviter,
 * consumes the day's quota, inserts the order, posts the ledger entry (earning credited, wallet
 * debited under the balance CHECK, in the ledger's account order) and stores the answer, all in
 * the one statement's transaction. Refusals roll back what the block wrote and store their own
 * answer, chosen from `p_refusals` (already in the caller's language), so that a replay of the
 * key is answered the same way. The checks and their order are those of `buy` in
 * server/earn/service.ts, which a property test keeps as the oracle.
 *
 * Returns one row: outcome ('ok', 'replay', a refusal's error name, or IDEMPOTENCY_MISMATCH /
 * IDEMPOTENCY_BUSY, which store nothing), the HTTP status and the answer's body.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function earn_buy(
      p_user bigint, p_key text, p_hash text, p_now timestamptz, p_today date,
      p_product text, p_amount bigint, p_power bigint, p_coefficient text, p_status text,
      p_start_day date, p_cycle_start timestamptz, p_matures_day date,
      p_minimum bigint, p_quota bigint, p_answer jsonb, p_refusals jsonb
    ) returns table (outcome text, status integer, body jsonb)
    language plpgsql as $fn$
    declare
      v_stored record;
      v_inviter bigint;
      v_used bigint;
      v_order bigint;
      v_entry bigint;
      v_refusal text;
      v_answer jsonb;
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
                              created_at, cycle_start, matures_day)
          values (p_user, p_product, p_amount, p_power, p_coefficient, p_status, p_start_day,
                  p_now, p_cycle_start, p_matures_day)
          returning id into v_order;
          insert into journal_entries (kind, ref, created_at)
          values ('subscribe', 'order:' || v_order, p_now) returning id into v_entry;
          insert into accounts as a (user_id, asset, kind, balance, allow_negative)
          values (p_user, 'AIC', 'earning', p_amount, false)
          on conflict (user_id, asset, kind) do update set balance = a.balance + excluded.balance;
          update accounts set balance = balance - p_amount
          where user_id = p_user and asset = 'AIC' and kind = 'wallet';
          if not found then raise exception 'no wallet' using errcode = '23514'; end if;
          insert into postings (entry_id, user_id, asset, kind, amount)
          values (v_entry, p_user, 'AIC', 'earning', p_amount), (v_entry, p_user, 'AIC', 'wallet', -p_amount);
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
    $fn$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists earn_buy`.execute(db);
}
