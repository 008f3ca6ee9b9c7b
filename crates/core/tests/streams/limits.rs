//! The 5-stream limit under concurrent creates: at 4 streams, two owners' requests at once add
//! exactly one stream; the other is told `too_many_streams`.

use super::*;

both!(
    /// Two creates at once at 4 streams, a few rounds: one is added, one refused, never 6.
    async fn concurrent_creates_at_four_add_exactly_one(fx: Fx) from fixture {
        for _ in 0..4 {
            fx.https(None).await;
        }
        let input = StreamInput { kind: "https".into(), url: fx.receiver.url(), token: None, events: None };
        for round in 0..5 {
            let (a, b) = tokio::join!(
                fx.streams.create(&fx.owner, &input),
                fx.streams.create(&fx.owner, &input),
            );
            let added: Vec<Uuid> = [&a, &b].iter().filter_map(|r| r.as_ref().ok().map(|c| c.stream.id)).collect();
            let refused: Vec<&str> = [&a, &b].iter().filter_map(|r| r.as_ref().err().map(|e| e.code())).collect();
            assert_eq!((added.len(), refused), (1, vec!["too_many_streams"]), "round {round}");
            assert_eq!(fx.streams.list(&fx.owner).await.unwrap().len(), 5, "round {round}");
            fx.streams.delete(&fx.owner, added[0]).await.unwrap();
        }
    }
);
