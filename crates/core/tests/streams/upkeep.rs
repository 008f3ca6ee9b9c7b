//! The sweep and event streams: delivered outbox rows go once their day is over (what is still
//! owed stays), the deliveries list keeps its last 100, and replay, which reads the audit log,
//! sends the swept events again with their ids.

use closewise_core::sweep::Sweeper;

use super::*;

/// How many outbox rows the stream has: (all, delivered).
async fn outbox(fx: &Fx, stream: Uuid) -> (i64, i64) {
    let sql = "SELECT COUNT(*), COUNT(delivered_at) FROM stream_outbox WHERE stream_id = $1";
    if fx.core.url.starts_with("postgres") {
        let p = sqlx::PgPool::connect(&fx.core.url).await.unwrap();
        sqlx::query_as(sql)
            .bind(stream)
            .fetch_one(&p)
            .await
            .unwrap()
    } else {
        let p = sqlx::SqlitePool::connect(&fx.core.url).await.unwrap();
        sqlx::query_as(sql)
            .bind(stream)
            .fetch_one(&p)
            .await
            .unwrap()
    }
}

both!(
    /// Delivered rows older than a day are swept, pending ones kept; the deliveries stay listed;
    /// a replay from before the sweep sends the same events, in order, with the same ids.
    async fn the_sweep_deletes_delivered_outbox_rows_and_replay_still_sends_them(fx: Fx) from fixture {
        let (stream, _) = fx.https(None).await;
        for name in ["One", "Two", "Three"] {
            fx.teams.rename(&fx.owner, name).await.unwrap();
        }
        let worker = fx.worker("a");
        fx.drain(&worker).await;
        let sent = events_of(&fx.receiver.requests());
        let (all, delivered) = outbox(&fx, stream).await;
        assert_eq!((all, delivered), (sent.len() as i64, sent.len() as i64));
        let sweeper = Sweeper::new(fx.store().clone(), fx.core.clock.clone());

        // Within the day nothing goes.
        assert_eq!(sweeper.sweep(fx.core.clock.now()).await.unwrap().stream_outbox, 0);
        fx.core.clock.advance(time::Duration::hours(25));
        // One more change, owed and not delivered: it stays.
        fx.teams.rename(&fx.owner, "Four").await.unwrap();
        let report = sweeper.sweep(fx.core.clock.now()).await.unwrap();
        assert_eq!(report.stream_outbox, sent.len() as u64, "{report:?}");
        assert_eq!(outbox(&fx, stream).await, (1, 0));
        assert!(!fx.streams.deliveries(&fx.owner, stream).await.unwrap().is_empty(), "the deliveries stay listed");
        assert_eq!(fx.streams.list(&fx.owner).await.unwrap()[0].pending, 1);

        fx.drain(&worker).await;
        let before = events_of(&fx.receiver.requests()).len();
        let since = (fx.core.clock.now() - time::Duration::days(3)).date().to_string();
        let replayed = fx.streams.replay(&fx.owner, stream, &since).await.unwrap();
        fx.drain(&worker).await;
        let again = events_of(&fx.receiver.requests())[before..].to_vec();
        let ids = |v: &[Value]| v.iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
        let again_ids = ids(&again);
        let sent_ids = ids(&sent);
        // The swept events come again, in their order, with their ids.
        let swept_again: Vec<String> = again_ids.iter().filter(|id| sent_ids.contains(id)).cloned().collect();
        assert_eq!(swept_again, sent_ids);
        assert_eq!(replayed as usize, again.iter().filter(|e| e["data"]["action"] != "team.stream_replay").count());
    }
);

both!(
    /// The sweep leaves a stream's newest 100 deliveries and deletes older ones.
    async fn the_sweep_keeps_the_last_100_deliveries_of_each_stream(fx: Fx) from fixture {
        let (stream, _) = fx.https(None).await;
        let sql = "INSERT INTO stream_deliveries (id, stream_id, attempted_at, events, first_seq, \
                   last_seq, status, response_code, latency_ms) VALUES ($1, $2, $3, 1, 1, 1, 'delivered', 200, 5)";
        let start = fx.core.clock.now() - time::Duration::days(10);
        let rows: Vec<(Uuid, time::OffsetDateTime)> =
            (0..120).map(|i| (Uuid::now_v7(), start + time::Duration::minutes(i))).collect();
        if fx.core.url.starts_with("postgres") {
            let p = sqlx::PgPool::connect(&fx.core.url).await.unwrap();
            for (id, at) in &rows {
                sqlx::query(sql).bind(id).bind(stream).bind(at).execute(&p).await.unwrap();
            }
        } else {
            let p = sqlx::SqlitePool::connect(&fx.core.url).await.unwrap();
            for (id, at) in &rows {
                sqlx::query(sql).bind(id).bind(stream).bind(at).execute(&p).await.unwrap();
            }
        }
        let report = Sweeper::new(fx.store().clone(), fx.core.clock.clone()).sweep(fx.core.clock.now()).await.unwrap();
        assert_eq!(report.stream_deliveries, 20, "{report:?}");
        let kept = fx.streams.deliveries(&fx.owner, stream).await.unwrap();
        assert_eq!(kept.len(), 100);
        assert_eq!(kept[0].id, rows[119].0, "the newest first");
        assert_eq!(kept[99].id, rows[20].0);
    }
);
