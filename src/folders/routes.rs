//! `/api/folders/tree` and its changes: create, rename or move, delete (on the IMAP server,
//! then here), and moving mail into a folder. Every call names the mailbox (`accountId`); a
//! mailbox that is not the caller's is 404.

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::path::{Layout, MAX_FOLDERS};
use super::server::{self, Change};
use super::tree::{self, FolderTree};
use crate::accounts::{self, AccountRecord};
use crate::auth::CurrentUser;
use crate::emails::triage;
use crate::error::{ApiJson, AppError, Result};
use crate::mailstore::{FolderState, MailRead};
use crate::messages;
use crate::notices::{FoldersChanged, Notice, Notices};
use crate::state::AppState;

/// The most mails one move takes.
pub const MAX_MOVE: usize = 1000;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/folders/tree", get(get_tree))
        .route("/api/folders/create", post(create))
        .route("/api/folders/rename", post(rename))
        .route("/api/folders/delete", post(delete))
        .route("/api/folders/move-mail", post(move_mail))
}

/// `POST /api/folders/create`: a folder `name` under `parent` (a path), or at the top.
#[derive(Debug, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct CreateFolder {
    pub account_id: u64,
    pub parent: Option<String>,
    pub name: String,
}

/// `POST /api/folders/rename`: the folder at `path` renamed to `name` and placed under
/// `parent` (none: the top). A rename keeps the parent; a move keeps the name.
#[derive(Debug, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct RenameFolder {
    pub account_id: u64,
    pub path: String,
    pub name: String,
    pub parent: Option<String>,
}

/// `POST /api/folders/delete`: the folder at `path` and every folder under it, with their mail.
#[derive(Debug, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DeleteFolder {
    pub account_id: u64,
    pub path: String,
}

/// What a delete removed, and the tree after it.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FolderDeleted {
    pub folders: usize,
    pub mails: usize,
    pub tree: FolderTree,
}

/// `POST /api/folders/move-mail`: these mails (ids) into the folder at `folder` of their mailbox.
#[derive(Debug, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MoveMail {
    pub ids: Vec<String>,
    pub folder: String,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MailMoved {
    pub moved: usize,
}

async fn get_tree(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<FolderTree>> {
    let tree = state
        .store_blocking(move |store| tree::tree(store, user.id))
        .await?;
    Ok(Json(tree))
}

/// The caller's mailbox and its folders' layout.
async fn mailbox(
    state: &AppState,
    user_id: u64,
    account_id: u64,
) -> Result<(AccountRecord, Layout)> {
    state
        .store_blocking(move |store| {
            let account = accounts::get_owned(store, user_id, account_id)?;
            let folders = MailRead::new(store)?.folders(account_id)?;
            Ok((account, Layout::of(folders)))
        })
        .await
}

/// Tells the user's sessions, and answers with the tree.
async fn changed(state: &AppState, user_id: u64, account_id: u64) -> Result<FolderTree> {
    state.service::<Notices>().send(
        user_id,
        Notice::FoldersChanged(FoldersChanged { account_id }),
    );
    state
        .store_blocking(move |store| tree::tree(store, user_id))
        .await
}

async fn create(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<CreateFolder>,
) -> Result<Json<FolderTree>> {
    let (account, layout) = mailbox(&state, user.id, req.account_id).await?;
    if layout.folders.len() >= MAX_FOLDERS {
        return Err(AppError::BadRequest(messages::folders_too_many(
            MAX_FOLDERS,
        )));
    }
    let path = layout.child_path(req.parent.as_deref(), &req.name)?;
    let change = Change::Create {
        folder: FolderState {
            display_name: layout.plain(&path),
            delimiter: layout.delimiter.clone(),
            name: path,
            ..FolderState::default()
        },
    };
    server::run(&state, &account, &change).await?;
    server::follow(&state, &account, change).await?;
    Ok(Json(changed(&state, user.id, account.id).await?))
}

async fn rename(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<RenameFolder>,
) -> Result<Json<FolderTree>> {
    let (account, layout) = mailbox(&state, user.id, req.account_id).await?;
    layout.own(&req.path)?;
    if let Some(parent) = req.parent.as_deref() {
        let inside = format!("{}{}", req.path, layout.delimiter);
        if parent == req.path || parent.starts_with(&inside) {
            return Err(AppError::BadRequest(messages::FOLDER_INTO_ITSELF.into()));
        }
    }
    let current = layout.plain(&req.path);
    let unchanged_name = current.rsplit('/').next() == Some(req.name.trim());
    let same_parent = layout
        .get(&req.path)
        .map(|f| {
            f.name
                .rsplit_once(layout.delimiter.as_str())
                .map(|(h, _)| h.to_string())
        })
        .unwrap_or_default()
        .filter(|h| format!("{h}{}", layout.delimiter) != layout.prefix)
        == req.parent;
    if unchanged_name && same_parent {
        return Ok(Json(changed(&state, user.id, account.id).await?));
    }
    let to = layout.child_path(req.parent.as_deref(), &req.name)?;
    // The folder and everything under it take the new path.
    let mut renamed = vec![(req.path.clone(), to.clone(), layout.plain(&to))];
    for f in layout.below(&req.path) {
        let moved = format!("{to}{}", &f.name[req.path.len()..]);
        renamed.push((f.name.clone(), moved.clone(), layout.plain(&moved)));
    }
    let change = Change::Rename {
        from: req.path.clone(),
        to,
        renamed,
    };
    server::run(&state, &account, &change).await?;
    server::follow(&state, &account, change).await?;
    Ok(Json(changed(&state, user.id, account.id).await?))
}

async fn delete(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<DeleteFolder>,
) -> Result<Json<FolderDeleted>> {
    let (account, layout) = mailbox(&state, user.id, req.account_id).await?;
    layout.own(&req.path)?;
    let mut paths: Vec<String> = layout
        .below(&req.path)
        .iter()
        .map(|f| f.name.clone())
        .collect();
    paths.push(req.path.clone());
    // The mail the user sees there (as the tree counts it: a mail already moved out is not).
    let (account_id, counted) = (account.id, paths.clone());
    let mails = state
        .store_blocking(move |store| {
            Ok(crate::emails::listing::folders(store, user.id)?
                .into_iter()
                .filter(|f| f.account_id == account_id && counted.contains(&f.name))
                .map(|f| f.total)
                .sum::<usize>())
        })
        .await?;
    let folders = paths.len();
    let change = Change::Delete { paths };
    server::run(&state, &account, &change).await?;
    server::follow(&state, &account, change).await?;
    let tree = changed(&state, user.id, account.id).await?;
    Ok(Json(FolderDeleted {
        folders,
        mails,
        tree,
    }))
}

async fn move_mail(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    ApiJson(req): ApiJson<MoveMail>,
) -> Result<Json<MailMoved>> {
    if req.ids.is_empty() {
        return Err(AppError::BadRequest(messages::FOLDER_MOVE_EMPTY.into()));
    }
    if req.ids.len() > MAX_MOVE {
        return Err(AppError::BadRequest(messages::folder_move_too_many(
            MAX_MOVE,
        )));
    }
    let ids: Vec<u64> = req
        .ids
        .iter()
        .map(|id| {
            id.parse()
                .map_err(|_| AppError::NotFound(messages::EMAIL_NOT_FOUND.into()))
        })
        .collect::<Result<_>>()?;
    let folder = req.folder;
    let (moved, accounts) = state
        .store_blocking(move |store| {
            let mut accounts = std::collections::BTreeSet::new();
            let mut first_error = None;
            let mut moved = 0;
            for id in ids {
                match triage::move_to_folder(store, user.id, id, &folder) {
                    Ok(meta) => {
                        moved += 1;
                        accounts.insert(meta.account_id);
                    }
                    Err(e) => {
                        first_error.get_or_insert(e);
                    }
                }
            }
            match first_error {
                Some(e) if accounts.is_empty() => Err(e),
                _ => Ok((moved, accounts)),
            }
        })
        .await?;
    crate::emails::routes::changed(&state, accounts);
    Ok(Json(MailMoved { moved }))
}
