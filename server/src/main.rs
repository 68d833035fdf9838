//! `udd-server`: serves the game (default), creates the table for operators, prints the
//! CloudFormation template, or runs the benchmark.

mod bench;
mod cli;
mod load;

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use app::catalog::{self, seed::SEED};
use app::http::ecs;
use app::http::engine::{Engine, EngineConfig};
use app::http::{router, AppState};
use app::store::{table, Db};
use clap::Parser;
use cli::{
    BoardsCommand, Cli, Command, FlaggedCommand, MetricsAddress, ReportsCommand, SeasonCommand,
    ServeArgs, StoreArgs,
};
use leptos::prelude::get_configuration;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // Logs go to stderr (stdout carries only the served address), coloured only on a terminal.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(
            EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| EnvFilter::new("info,aws_config=warn,aws_smithy_runtime=warn")),
        )
        .init();
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(&cli.store, &cli.serve).await,
        Command::CreateTable(args) => {
            let engine = Engine::start(cli.store.engine_config()?).await?;
            let outcome = Db::new(engine.client.clone(), cli.store.table.as_str())
                .ensure_table_with(args.ceiling())
                .await;
            engine.stop().await;
            println!("table {}: {:?}", cli.store.table, outcome?);
            Ok(())
        }
        Command::Template => {
            print!("{}", table::cloudformation_template());
            Ok(())
        }
        Command::Bench(args) => bench::run(args).await,
        Command::Load(args) => load::run(args).await,
        Command::Season(command) => {
            let (engine, db) = open_store(&cli.store).await?;
            let outcome = season(&db, command).await;
            engine.stop().await;
            outcome
        }
        Command::Boards(BoardsCommand::Rebuild) => {
            let (engine, db) = open_store(&cli.store).await?;
            let started = std::time::Instant::now();
            let outcome = db.boards().rebuild_boards().await;
            engine.stop().await;
            let applied = outcome?;
            println!(
                "rebuilt the boards: {} match results counted now (the rest were counted \
                 already), {} writes, {} re-planned, {:.1} s",
                applied.counted,
                applied.writes,
                applied.retries,
                started.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Command::Boards(BoardsCommand::Convert) => {
            let (engine, db) = open_store(&cli.store).await?;
            let outcome = db.boards().convert_boards().await;
            engine.stop().await;
            let converted = outcome?;
            println!(
                "converted {} boards ({} entries, {} nodes of the first tree deleted)",
                converted.boards, converted.entries, converted.old_nodes
            );
            Ok(())
        }
        Command::Boards(BoardsCommand::Seed(args)) => {
            bench::seed(open_store(&cli.store).await?, args).await
        }
        Command::Flagged(command) => {
            let (engine, db) = open_store(&cli.store).await?;
            let outcome = flagged(&db, command).await;
            engine.stop().await;
            outcome
        }
        Command::Reports(command) => {
            let (engine, db) = open_store(&cli.store).await?;
            let outcome = reports(&db, command).await;
            engine.stop().await;
            outcome
        }
        Command::Grant {
            player,
            feathers,
            cards,
        } => {
            let (engine, db) = open_store(&cli.store).await?;
            let outcome = grant(&db, &player, feathers, &cards).await;
            engine.stop().await;
            outcome
        }
        Command::Engine { listen } => {
            anyhow::ensure!(
                listen.ip().is_loopback(),
                "the embedded engine listens on loopback only (127.0.0.1 or ::1): its traffic is \
                 not encrypted; share a table across machines with DynamoDB instead"
            );
            let key = match std::env::var(app::http::engine::ENGINE_KEY_VAR) {
                Ok(key) if app::http::engine::front::valid_key(&key) => key,
                Ok(_) => anyhow::bail!(
                    "{} must be 16 to 128 letters and digits",
                    app::http::engine::ENGINE_KEY_VAR
                ),
                Err(_) => {
                    let key = app::http::engine::front::random_key();
                    println!(
                        "Engine key: {key} (give it to every instance as {}={key})",
                        app::http::engine::ENGINE_KEY_VAR
                    );
                    key
                }
            };
            let addr = Engine::serve_standalone(
                Some(&cli.store.data_dir),
                listen,
                &key,
                shutdown_signal(),
            )
            .await?;
            tracing::info!(%addr, "embedded engine stopped");
            Ok(())
        }
    }
}

/// `udd-server flagged`: the operator's review of results too fast to believe.
async fn flagged(db: &Db, command: FlaggedCommand) -> anyhow::Result<()> {
    use app::store::keys::Key;
    match command {
        FlaggedCommand::List { limit } => {
            let results = db.game().flagged_results(limit).await?;
            for r in &results {
                println!(
                    "{} {}  {} ({})  {}  mean {} ms  ended {}",
                    r.key.pk,
                    r.key.sk,
                    r.nickname,
                    r.user_id,
                    r.day
                        .as_deref()
                        .map_or_else(|| "a match".to_owned(), |d| format!("daily {d}")),
                    r.average_ms.map_or_else(|| "—".into(), |ms| ms.to_string()),
                    r.finished_ms
                );
            }
            println!("{} flagged", results.len());
        }
        FlaggedCommand::Clear { pk, sk } => {
            let done = db.game().clear_flag(&Key { pk, sk }).await?;
            anyhow::ensure!(done, "no flagged result has that key");
            println!("cleared: it counts on its boards now");
        }
        FlaggedCommand::Confirm { pk, sk } => {
            let done = db.game().confirm_flag(&Key { pk, sk }).await?;
            anyhow::ensure!(done, "no flagged result has that key");
            println!("confirmed: it stays off the boards");
        }
    }
    Ok(())
}

/// The player a command names: a username or a player id.
async fn player_named(db: &Db, player: &str) -> anyhow::Result<app::identity::UserId> {
    if let Ok(id) = app::identity::UserId::parse(player) {
        return Ok(id);
    }
    let name = app::identity::Username::parse(player.trim_start_matches('@'))
        .map_err(|e| anyhow::anyhow!(e))?;
    db.accounts()
        .user_by_username(&name)
        .await?
        .ok_or_else(|| anyhow::anyhow!("no player has the username {name}"))
}

/// `udd-server reports`: the operator's review of reports and hidden names.
async fn reports(db: &Db, command: ReportsCommand) -> anyhow::Result<()> {
    use app::identity::store::hidden::HiddenBy;
    match command {
        ReportsCommand::List { limit } => {
            let (reports, hidden) = tokio::try_join!(
                db.reports().open_reports(limit),
                db.accounts().hidden_list()
            )?;
            println!("reported players ({}):", reports.len());
            for r in &reports {
                println!(
                    "  {}  {}  {} reporters (name {}, abuse {}, cheating {}, other {})  last {}",
                    r.user,
                    r.name,
                    r.count,
                    r.name_reports,
                    r.abuse_reports,
                    r.cheating_reports,
                    r.other_reports,
                    r.last_ms
                );
            }
            println!("hidden players ({}):", hidden.players.len());
            for p in &hidden.players {
                println!("  {}  {}  by {:?}  at {}", p.user, p.name, p.by, p.at_ms);
            }
            println!("banned names ({}):", hidden.names.len());
            for n in &hidden.names {
                println!("  {}", n.name);
            }
        }
        ReportsCommand::Hide { player } => {
            let user = player_named(db, &player).await?;
            let profile = db
                .accounts()
                .profile(&user)
                .await?
                .ok_or_else(|| anyhow::anyhow!("no player {user}"))?;
            let done = db
                .accounts()
                .hide_player(&user, &profile.display_name, HiddenBy::Operator)
                .await?;
            println!(
                "{}",
                if done {
                    "hidden: every name of theirs shows as a tag"
                } else {
                    "hidden already"
                }
            );
        }
        ReportsCommand::Clear { player } => {
            let user = player_named(db, &player).await?;
            let done = db.reports().clear(&user).await?;
            println!(
                "{}",
                if done {
                    "cleared: their reports are gone and their names show"
                } else {
                    "nothing to clear"
                }
            );
        }
        ReportsCommand::BanName { name, lift } => {
            let name =
                app::identity::DisplayName::try_from(name).map_err(|e| anyhow::anyhow!(e))?;
            let done = match lift {
                false => db.accounts().ban_name(&name).await?,
                true => db.accounts().unban_name(&name).await?,
            };
            println!(
                "{}",
                match (lift, done) {
                    (false, true) => "banned: hidden wherever it was copied, refused when typed",
                    (false, false) => "banned already",
                    (true, true) => "the ban is lifted",
                    (true, false) => "that name was not banned",
                }
            );
        }
    }
    Ok(())
}

async fn grant(db: &Db, player: &str, feathers: u64, cards: &[String]) -> anyhow::Result<()> {
    use app::inventory::{Rewards, ThingId};
    let user = player_named(db, player).await?;
    let cards: Vec<ThingId> = if cards.iter().any(|c| c == "all") {
        app::inventory::store::CARDS.keys().cloned().collect()
    } else {
        cards
            .iter()
            .filter(|c| !c.trim().is_empty())
            .map(|c| {
                let thing =
                    ThingId::parse(c).map_err(|_| anyhow::anyhow!("{c}: not a thing id"))?;
                anyhow::ensure!(
                    app::inventory::store::card(&thing).is_some(),
                    "{c}: there is no such card"
                );
                Ok(thing)
            })
            .collect::<anyhow::Result<_>>()?
    };
    db.inventory()
        .grant_rewards(
            &user,
            &Rewards {
                cards: cards.clone(),
                feathers,
                badges: Vec::new(),
            },
        )
        .await?;
    println!("gave {user} {} cards and {feathers} feathers", cards.len());
    Ok(())
}

async fn season(db: &Db, command: SeasonCommand) -> anyhow::Result<()> {
    match command {
        SeasonCommand::Start {
            id,
            name,
            days,
            start_ms,
        } => {
            let id = app::leaderboards::SeasonId::parse(&id).map_err(|e| anyhow::anyhow!(e))?;
            anyhow::ensure!((1..=3650).contains(&days), "a season lasts 1 to 3650 days");
            let start = start_ms.unwrap_or_else(app::store::epoch_millis);
            let season = db
                .boards()
                .start_season(&id, &name, start, start + days * 86_400_000)
                .await?;
            println!(
                "season {} ({}) starts {} ms, ends {} ms",
                season.id, season.name, season.start_ms, season.end_ms
            );
        }
        SeasonCommand::List => {
            for s in db.boards().seasons().await? {
                println!("{}\t{}\t{}\t{}", s.id, s.name, s.start_ms, s.end_ms);
            }
        }
    }
    Ok(())
}

/// Opens the table (creating and seeding it as needed) on the configured engine.
pub(crate) async fn open_store(store: &StoreArgs) -> anyhow::Result<(Engine, Db)> {
    let config = store.engine_config()?;
    let engine = Engine::start(config.clone())
        .await
        .context("starting the DynamoDB engine")?;
    let db = Db::new(engine.client.clone(), store.table.as_str());
    let where_ = match (&config, engine.embedded_addr) {
        (EngineConfig::Embedded { data_dir }, Some(addr)) => format!(
            "embedded dynoxide at http://{addr}, file {}",
            data_dir
                .as_ref()
                .map(|d| d.join("udd.sqlite").display().to_string())
                .unwrap_or_else(|| ":memory:".into())
        ),
        (EngineConfig::Endpoint { url, .. }, _) => format!("endpoint {url}"),
        _ => "AWS DynamoDB (default credential chain)".to_owned(),
    };
    tracing::info!(
        engine = config.kind(),
        table = db.table_name(),
        "using {where_}"
    );
    // On AWS the table is the operator's (its stack): checked, never created or altered, so
    // the service's role needs no rights over the table's definition.
    if matches!(config, EngineConfig::Aws) {
        db.check_table().await.context("checking the table")?;
    } else {
        db.ensure_table().await.context("creating the table")?;
    }
    let things = catalog::validate(SEED)
        .map_err(|problems| anyhow::anyhow!("the seed catalog is invalid: {problems:?}"))?;
    let seeded = db
        .catalog()
        .seed_catalog(&things)
        .await
        .context("seeding the catalog")?;
    tracing::info!(?seeded, "catalog ready");
    db.inventory()
        .seed_shop()
        .await
        .context("writing the shop's list")?;
    db.ensure_secret()
        .await
        .context("reading the table's shared secret")?;
    Ok((engine, db))
}

async fn serve(store: &StoreArgs, args: &ServeArgs) -> anyhow::Result<()> {
    let leptos_options = get_configuration(None)?.leptos_options;
    let addr: SocketAddr = leptos_options.site_addr;
    let (engine, db) = open_store(store).await?;
    anyhow::ensure!(
        args.price_read_per_million >= 0.0 && args.price_write_per_million >= 0.0,
        "prices cannot be negative"
    );
    let db = db.with_pricing(app::store::Pricing {
        read_per_million: args.price_read_per_million,
        write_per_million: args.price_write_per_million,
    });
    // The board projector and the instances' registry retry on a partition of their own: a
    // burst of faults there never leaves the players' taps without retries.
    let background = db.with_client(engine.background.clone());
    let (stop_projector, projector_stopped) = tokio::sync::oneshot::channel::<()>();
    let projector = args.projector.then(|| {
        app::leaderboards::projector::Projector::new(
            background.counted_as("projector"),
            engine.streams.clone(),
        )
    });
    let handover = projector.as_ref().map(|p| p.handover());
    let projector = projector.map(|projector| {
        tokio::spawn(projector.run(async {
            let _ = projector_stopped.await;
        }))
    });
    let state = AppState::with_poll(
        leptos_options,
        db,
        engine.config.kind(),
        Duration::from_millis(args.live_poll_ms),
    )
    .with_security(args.security())
    .with_operators(app::reports::Operators::new(args.operators()?));
    let hub = state.hub.clone();
    hub.set_stream_life(Duration::from_secs(args.stream_life_secs));
    // Shards another instance let go of as it shut down: taken now, not when their leases end.
    if let Some(handover) = handover {
        hub.on_leases_released(move |shards| handover.offer(shards));
    }
    serve_metrics(args.metrics_address).await;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("listening on {addr}"))?;
    let bound = listener.local_addr()?;
    // Join the other instances on the table, to pass each other news of rooms.
    // On ECS the task's private address, from its metadata; else the listening address.
    // A task that cannot say where it is would announce 127.0.0.1 to the others and miss their
    // news: on ECS it does not start (ECS starts another task) rather than serve half-blind.
    let on_ecs = match (&args.peer_address, std::env::var(ecs::METADATA_VAR)) {
        (None, Ok(uri)) => {
            let mut found = None;
            for attempt in 1..=ecs::ATTEMPTS {
                found = ecs::peer_address(&uri, bound.port()).await;
                if found.is_some() || attempt == ecs::ATTEMPTS {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            }
            let Some(found) = found else {
                anyhow::bail!(
                    "on ECS ({} is set) but no address in the task metadata after {} tries: \
                     the other instances could not reach this one (set UDD_PEER_ADDRESS)",
                    ecs::METADATA_VAR,
                    ecs::ATTEMPTS
                );
            };
            Some(found)
        }
        _ => None,
    };
    let peer_address = args.peer_address.clone().or(on_ecs).unwrap_or_else(|| {
        let mut reachable = bound;
        if reachable.ip().is_unspecified() {
            reachable.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
        }
        format!("http://{reachable}")
    });
    hub.join_peers_through(
        background.counted_as(app::live::hub::PEERS),
        ulid::Ulid::new().to_string(),
        peer_address,
    );
    // On ECS: protected from scale-in and deployments while a match is in play here.
    if let Ok(agent) = std::env::var(ecs::protection::AGENT_VAR) {
        tokio::spawn(ecs::protection::run(
            hub.clone(),
            agent,
            ecs::protection::CHECK_EVERY,
        ));
    }
    tracing::info!("Udd is serving at http://{bound}");
    println!("Udd is serving at http://{bound}");
    // On SIGTERM: streams end (browsers reconnect elsewhere) and new ones are refused; the
    // projector lets go of its shards and the others are told at once; requests in flight
    // get the grace to finish.
    let grace = Duration::from_millis(args.shutdown_grace_ms);
    let (stopping, stop_requested) = tokio::sync::oneshot::channel::<std::time::Instant>();
    let handing_over = {
        let hub = hub.clone();
        tokio::spawn(async move {
            let released = match projector {
                Some(projector) => projector.await.unwrap_or_default(),
                None => Vec::new(),
            };
            hub.tell_released(released).await;
        })
    };
    let draining = {
        let hub = hub.clone();
        async move {
            shutdown_signal().await;
            let _ = stopping.send(std::time::Instant::now());
            hub.drain();
            let _ = stop_projector.send(());
        }
    };
    // With timeouts on headers and bodies; connection info lets limits key on the client.
    app::http::serve::serve_with_grace(
        listener,
        router(state),
        app::http::serve::Timeouts {
            header: app::http::serve::HEADER_READ_TIMEOUT,
            idle: Duration::from_secs(args.keep_alive_secs),
        },
        draining,
        Some(grace),
    )
    .await?;
    let left = stop_requested
        .await
        .map_or(grace, |at| grace.saturating_sub(at.elapsed()));
    if tokio::time::timeout(left, handing_over).await.is_err() {
        tracing::warn!("the board projector did not stop within the grace");
    }
    hub.leave_peers().await;
    tracing::info!("HTTP server stopped; stopping the engine");
    engine.stop().await;
    Ok(())
}

/// Serves `GET /metrics` at `address` (see [`app::http::metrics`]); the address it serves at.
async fn serve_metrics(address: MetricsAddress) -> Option<SocketAddr> {
    let addr = address.0?;
    let handle = app::http::metrics::install()?;
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(listener) => listener,
        Err(err) => {
            tracing::warn!(%addr, %err, "cannot serve /metrics there; serving without it");
            return None;
        }
    };
    let bound = listener.local_addr().ok()?;
    tokio::spawn(async move {
        if let Err(err) = axum::serve(listener, app::http::metrics::router(handle)).await {
            tracing::warn!(%err, "the metrics listener stopped");
        }
    });
    tracing::info!("metrics at http://{bound}/metrics");
    Some(bound)
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            tracing::error!(%err, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(err) => {
                tracing::error!(%err, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutdown requested");
}
