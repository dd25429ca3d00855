//! `mailclient serve`: opens (and migrates) the store, prints the first-run link when there
//! is no user yet, and serves HTTP until SIGINT or SIGTERM.

use std::net::SocketAddr;

use anyhow::Context;
use clap::Args;

use crate::app::app;
use crate::config::Config;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on. Overrides `[server] listen`.
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<String>,
}

pub fn run(config: Config) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(serve(config))
}

async fn serve(config: Config) -> anyhow::Result<()> {
    let (store, ran) = crate::schema::open_and_migrate_with_cache(
        &config.storage.data_dir,
        config.storage.cache_size_mb,
    )?;
    for m in &ran {
        tracing::info!(version = m.version, name = m.name, "applied migration");
    }
    let addr = config.listen_addr();
    let state = crate::app::state(config, store)?;
    let accounts = crate::app::start_background(&state).await?;
    if accounts > 0 {
        tracing::info!(accounts, "syncing mail accounts");
    }
    let sync = state.service::<crate::sync::SyncManager>();
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let bound = listener.local_addr()?;
    let public_url = state.config.public_url(bound);
    println!("mailclient listening on http://{bound}");
    if let Some(token) = state.service::<crate::auth::setup::SetupGate>().token() {
        // The console is the trusted channel: whoever can read it may create the first admin.
        println!("No user exists yet. Open this link once to create the first admin:");
        println!("  {public_url}/#/setup?token={token}");
        println!("(or run: mailclient user add <name> --admin)");
    }
    axum::serve(
        listener,
        app(state.clone()).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown_signal())
    .await
    .context("server error")?;
    state.jobs().shutdown().await;
    sync.stop_all();
    println!("mailclient stopped");
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
