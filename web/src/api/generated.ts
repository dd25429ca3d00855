// Generated from the server's types by `UPDATE_WIRE=1 cargo test --test wire`.
// Do not edit: change the Rust type (see src/wire.rs) and regenerate.

export type SuccessResponse = { success: boolean, };

export type HealthStatus = "ok" | "degraded";

export type HealthResponse = { status: HealthStatus, 
/**
 * The server's version (Cargo.toml); signed in only.
 */
version?: string, 
/**
 * The store's latest migration; signed in only.
 */
schemaVersion?: number, 
/**
 * Changes whenever the embedded web bundle does; signed in only.
 */
webBuild?: string, };

export type Role = "admin" | "user";

export type User = { id: number, username: string, name: string, role: Role, 
/**
 * RFC 3339, UTC.
 */
createdAt: string, };

export type LoginRequest = { username: string, password: string, };

export type LoginResponse = { success: boolean, token: string, user: User, };

export type MeResponse = { success: boolean, user: User, };

export type ChangePasswordRequest = { currentPassword: string, newPassword: string, };

export type SetupStatusResponse = { needsSetup: boolean, };

export type SetupAdminRequest = { token: string, username: string, name: string, password: string, };

export type SetupAdminResponse = { success: boolean, user: User, };

export type AdminUsersResponse = { success: boolean, users: Array<User>, };

export type CreateUserRequest = { username: string, name: string, password: string, 
/**
 * Absent: a plain user.
 */
role?: Role, };

export type UpdateUserRequest = { name?: string, role?: Role, 
/**
 * A new password set by the admin; ends the user's sessions.
 */
password?: string, };

export type AdminUserResponse = { success: boolean, user: User, };

export type Preferences = { 
/**
 * The in-app bell and toasts for new mail.
 */
emailNotifications: boolean, 
/**
 * The browser's notifications for new mail.
 */
desktopNotifications: boolean, 
/**
 * A short sound on new mail.
 */
soundNotifications: boolean, 
/**
 * Opening a mail marks it read.
 */
autoRead: boolean, 
/**
 * The smart-reply buttons of the reading pane.
 */
smartReply: boolean, darkMode: boolean, 
/**
 * Hebrew is the only UI language: `he`.
 */
language: string, 
/**
 * An IANA time zone: the day of "today", the times on screen, work hours.
 */
timezone: string, appScale: number, fontScale: number, iconScale: number, 
/**
 * A denser list and reading pane.
 */
compactMode: boolean, 
/**
 * The mail list shows a line of each mail's text under its subject (spec 000 §3).
 */
showPreview: boolean, 
/**
 * Days a sent mail that asks something waits for an answer before it shows as awaiting
 * one (each mail may have its own).
 */
followUpDays: number, 
/**
 * What swiping a row of the list does on a touch screen: `archive` or `processed`.
 */
swipeAction: string, 
/**
 * How many of the newest mails the browser keeps for reading without the server (issue 39;
 * 0 keeps none).
 */
offlineMessages: number, };

export type SettingsType = "general" | "notifications" | "ui";

export type SettingsSyncResponse = { success: boolean, version: number, syncedSettings: Preferences, };

export type SettingsSyncRequest = { settingsUpdate: Partial<Preferences>, settingsType: SettingsType, 
/**
 * The version the client's values are based on.
 */
baseVersion: number, };

export type SettingsConflictItem = { key: string, yours: boolean | number | string, theirs: boolean | number | string, version: number, changedBy: string, };

export type SettingsConflictResponse = { success: boolean, error: string, message: string, conflicts: Array<SettingsConflictItem>, 
/**
 * The server's version and values now: a resolution is based on these.
 */
version: number, syncedSettings: Preferences, };

export type SettingsChanged = { changedBy: string, settingsUpdate: Partial<Preferences>, settingsType: SettingsType, 
/**
 * RFC 3339.
 */
timestamp: string, version: number, };

export type SettingsHistoryEntry = { version: number, changedBy: string, settingsUpdate: Array<string>, settingsType: SettingsType, timestamp: string, };

export type SettingsHistoryResponse = { success: boolean, history: Array<SettingsHistoryEntry>, };

export type SettingsRollbackRequest = { version: number, };

export type SettingsRollbackResponse = { success: boolean, version: number, syncedSettings: Preferences, message: string, };

export type LiveEvent = { "type": "auth_success", "data": { userId: number, } } | { "type": "auth_error", "data": { message: string, } } | { "type": "pong", "data": { time: number, } } | { "type": "subscribed", "data": { channel: LiveChannel, } } | { "type": "unsubscribed", "data": { channel: LiveChannel, } } | { "type": "new_mail", "data": NewMailEvent } | { "type": "mail_changed", "data": { reason: MailChangeReason, } } | { "type": "stats", "data": EmailCountsResponse } | { "type": "sync_status", "data": { accountId: number, status: SyncStatus, } } | { "type": "system_notification", "data": { level: NotificationLevel, message: string, } } | { "type": "settings_changed", "data": SettingsChanged } | { "type": "settings_stale" } | { "type": "settings_conflict", "data": SettingsConflictResponse } | { "type": "auto_reply", "data": AutoReplyNotice } | { "type": "task_due", "data": TaskDueNotice } | { "type": "spam_detected", "data": SpamNotice } | { "type": "oauth_sign_in_needed", "data": OAuthSignInNotice } | { "type": "snooze_woke", "data": SnoozeWokeNotice } | { "type": "follow_up_due", "data": FollowUpDueNotice } | { "type": "folders_changed", "data": FoldersChangedNotice } | { "type": "send_failed", "data": SendFailedNotice };

export type LiveChannel = "mail" | "settings" | "system";

export type MailChangeReason = "sync" | "flags" | "status" | "delete" | "outbox" | "drafts";

export type NewMailEvent = { 
/**
 * The folder's role (inbox, sent, …), or its name for the user's own folders.
 */
folder: string, count: number, 
/**
 * Brought by the mailbox's first sync: its history, not news.
 */
initial: boolean, };

export type NotificationLevel = "error";

export type TaskDueNotice = { id: string, title: string, 
/**
 * RFC 3339.
 */
dueDate: string | null, };

export type AutoReplyNotice = { from: string, fromName: string, subject: string, 
/**
 * The decision in Hebrew.
 */
message: string, };

export type SpamNotice = { id: number, from: string, fromName: string, subject: string, score: number | null, message: string, };

export type OAuthSignInNotice = { email: string, 
/**
 * google or microsoft.
 */
provider: string, message: string, };

export type SnoozeWokeNotice = { id: string, threadId: string, emailId: string | null, subject: string, from: string, 
/**
 * time, reply or user.
 */
by: "time" | "reply" | "user", message: string, };

export type FollowUpDueNotice = { id: string, emailId: string, subject: string, to: Array<string>, message: string, };

export type FoldersChangedNotice = { accountId: number, };

export type SendFailedNotice = { id: string, subject: string, to: Array<string>, 
/**
 * Why, in Hebrew.
 */
message: string, 
/**
 * Whether the outbox tries again.
 */
retrying: boolean, };

export type AiKeyResponse = { success: boolean, exists: boolean, };

export type KeyExists = { 
/**
 * The user has a key of their own for their endpoint in effect.
 */
exists: boolean, 
/**
 * They have none, and the household's key (the admin's, in the global settings) serves
 * them: their AI calls use it.
 */
household: boolean, };

export type AiProvider = "anthropic" | "openai";

export type AiProviderChoice = { provider: AiProvider, model: string, baseUrl: string, };

export type AiSettings = { effective: AiProviderChoice, defaults: AiProviderChoice, keyStored: boolean, 
/**
 * False for an OpenAI-compatible server (a local model needs no key).
 */
keyRequired: boolean, 
/**
 * Whether this user may set the base URL (admins, or all when the server allows it); when
 * false, a PUT that changes `baseUrl` answers 403.
 */
baseUrlEditable: boolean, provider: AiProvider, model: string, baseUrl: string, };

export type AiTone = "professional" | "friendly" | "formal" | "casual" | "creative";

export type AiLanguage = "auto" | "hebrew" | "english" | "arabic" | "russian";

export type AiTemplate = { id: string, name: string, prompt: string, };

export type TrainingExample = { id: string, text: string, date: string, };

export type AiTrainingSettings = { systemPrompt: string, templates: Array<AiTemplate>, tone: AiTone, language: AiLanguage, creativity: number, 
/**
 * Words.
 */
maxLength: number, includeContext: boolean, autoCorrect: boolean, spamTrainingEnabled: boolean, spamExamples: Array<TrainingExample>, hamExamples: Array<TrainingExample>, spamKeywords: string, spamDomains: string, spamPatterns: string, 
/**
 * RFC 3339; null until first saved.
 */
updatedAt: string | null, };

export type SaveTrainingResponse = { success: boolean, settings: AiTrainingSettings, };

export type SmartReplyResponse = { success: boolean, reply: string, 
/**
 * The language the reply was asked in (hebrew, english, arabic, russian): the mail's own
 * unless the training names one.
 */
language: string, 
/**
 * Its direction, rtl or ltr, for the editor.
 */
dir: string, };

export type GenerateSubjectResponse = { success: boolean, subject: string, };

export type ImproveEmailResponse = { success: boolean, 
/**
 * The text as the editor's escaped HTML paragraphs.
 */
improved: string, improvedText: string, };

export type SpamSettings = { enabled: boolean, 
/**
 * Mail between the two thresholds goes to the user's AI provider for a verdict.
 */
useAI: boolean, 
/**
 * Spam is moved to the mailbox's Junk folder.
 */
autoMoveSpam: boolean, 
/**
 * Advertisements are listed under Promotions (otherwise they stay in the inbox, marked).
 */
autoMoveAds: boolean, 
/**
 * Points from which a mail is spam; 1 to 10.
 */
spamThreshold: number, 
/**
 * Points from which a mail is suspicious; 1 to 10, not above the spam threshold.
 */
suspiciousThreshold: number, 
/**
 * Words and phrases, one per line or comma-separated.
 */
customKeywords: string, 
/**
 * Sender or link domains that are spam.
 */
customDomains: string, 
/**
 * Domains and senders that always pass.
 */
whitelistDomains: string, whitelistSenders: string, 
/**
 * Keep the list of decisions (the activity list).
 */
logActivity: boolean, 
/**
 * Tell the user's open sessions when a mail is found to be spam.
 */
notifyOnSpam: boolean, };

export type SpamVerdict = "clean" | "suspicious" | "spam" | "advertisement";

export type SpamDecision = { 
/**
 * Unix seconds.
 */
at: number, message: number, from: string, subject: string, verdict: string, score: number, 
/**
 * sync (new mail), classify ('load and classify'), ai (the provider's review), user (the
 * user's own marking, learned).
 */
source: string, };

export type SaveSpamSettingsResponse = { success: boolean, settings: SpamSettings, };

export type SpamBreakdown = { id: number, score: number, 
/**
 * The score stored when the mail was judged (null: never judged).
 */
storedScore: number | null, verdict: SpamVerdict, status: string | null, spamThreshold: number, suspiciousThreshold: number, 
/**
 * The learning classifier's opinion, 0 (ham) to 1 (spam).
 */
spamminess: number | null, advertisement: boolean, hits: Array<SpamBreakdownHit>, };

export type SpamBreakdownHit = { rule: string, label: string, points: number, detail: string, };

export type SpamActivity = { 
/**
 * `logActivity` is on.
 */
logging: boolean, decisions: Array<SpamDecision>, 
/**
 * Mails the user trained as spam and as not spam (markings and examples).
 */
trainedSpam: number, trainedHam: number, };

export type SpamClassifyProgress = { running: boolean, done: number, total: number, spam: number, suspicious: number, advertisements: number, 
/**
 * Unix seconds, once finished.
 */
finishedAt: number | null, error: string | null, };

export type OAuthProvider = { id: MailAccountAuth, flow: OAuthFlowKind, };

export type OAuthFlowKind = "redirect" | "paste" | "device";

export type OAuthProvidersResponse = { providers: Array<OAuthProvider>, };

export type OAuthStartRequest = { email: string, };

export type DeviceFlowResponse = { flowId: string, userCode: string, verificationUri: string, 
/**
 * Seconds the code is valid.
 */
expiresIn: number, 
/**
 * Seconds between polls of the flow's state.
 */
interval: number, };

export type OAuthFlowState = "pending" | "done" | "expired" | "denied" | "failed";

export type OAuthFlowResponse = { state: OAuthFlowState, 
/**
 * Hebrew, when the flow ended without the account.
 */
message?: string, email: string, };

export type GoogleStartResponse = { flowId: string, authorizeUrl: string, flow: OAuthFlowKind, redirectUri: string, };

export type GoogleClaimRequest = { state: string, };

export type GoogleClaimResponse = { flowId: string, 
/**
 * The address the flow connects (what the user typed when they started it).
 */
email: string, };

export type GoogleFinishRequest = { flowId: string, 
/**
 * The whole address the browser ended on (paste mode).
 */
redirectedUrl?: string, 
/**
 * What the callback handed to the page (redirect mode).
 */
code?: string, state?: string, };

export type GoogleFinishResponse = { state: OAuthFlowState, email: string, };

export type SnippetPart = { text: string, hit: boolean, };

export type SearchResult = { 
/**
 * `inbox`, `sent`, `drafts`, `junk`, `trash`, `archive`, … or `""` for another folder.
 */
folderRole: string, 
/**
 * The folder's plain name (no server prefix or delimiter, Hebrew decoded).
 */
folderName: string, snippet: Array<SnippetPart>, id: string, accountId: number, threadId: string, messageId: string | null, from: string, from_name: string, to: Array<string>, cc: Array<string>, subject: string, preview: string, 
/**
 * RFC 3339.
 */
date: string, is_read: boolean, is_starred: boolean, is_answered: boolean, is_draft: boolean, 
/**
 * The mailbox's own labels: IMAP keywords without `$`, and the `$label` family
 * (`mailstore::keywords::is_label`); `GET /api/labels` gives their names and colours.
 */
labels: Array<string>, 
/**
 * Gmail's labels of the mail: the label folders it is in besides its own folder and the
 * labels X-GM-LABELS names, each once (decoded names, Hebrew readable). Absent on other
 * mailboxes.
 */
folderLabels?: Array<string>, status: string | null, priority: string | null, 
/**
 * RFC 3339: the mail's date or its last status change, whichever is later.
 */
lastActivity: string, folder: string, isSpam: boolean, isAdvertisement: boolean, 
/**
 * The spam engine's score in points when the mail was judged (null: never judged).
 */
spamScore: number | null, references: Array<string>, inReplyTo: string | null, originalMessageId: string | null, hasAttachments: boolean, attachments: Array<EmailAttachment>, size: number, 
/**
 * False when the message could not be decoded; its body is then shown as it arrived.
 */
parsed: boolean, };

export type SearchResponse = { 
/**
 * Every match, not only this page's.
 */
total: number, page: number, perPage: number, tookMs: number, 
/**
 * Mail still waits to be indexed: results may be missing some.
 */
indexing: boolean, results: Array<SearchResult>, };

export type OutgoingMail = { 
/**
 * A list, or one string of comma-separated addresses (the reply payload's `to`).
 */
to: string | Array<string | { name?: string, email: string }>, cc?: string | Array<string | { name?: string, email: string }>, bcc?: string | Array<string | { name?: string, email: string }>, subject: string, 
/**
 * HTML from the editor.
 */
body: string, 
/**
 * low, medium (default), normal, high, urgent.
 */
priority?: string, from_name?: string, 
/**
 * Which of the user's mailboxes (by address); the first one otherwise.
 */
from?: string, originalMessageId?: string, inReplyTo?: string, references?: Array<string>, 
/**
 * The local id of the mail replied to.
 */
originalId?: string | number, 
/**
 * Upload ids (`POST /api/attachments`).
 */
attachments?: Array<string | number>, 
/**
 * `sent` (default) or `drafts`.
 */
folder?: string, 
/**
 * RFC 3339: schedules the mail.
 */
snoozed_until?: string, };

export type SaveDraftRequest = { originalEmail: SaveDraftOriginal, draftContent: string, subject?: string, to?: string, };

export type SaveDraftOriginal = { 
/**
 * Its local id.
 */
id: string | number, messageId?: string, from: string, from_name: string, subject: string, };

export type UpdateDraftRequest = { 
/**
 * HTML.
 */
draftContent?: string, subject?: string, 
/**
 * Recipients as compose sends them (a list, or one comma-separated string).
 */
to?: string | Array<string | { name?: string, email: string }>, cc?: string | Array<string | { name?: string, email: string }>, };

export type SendResponse = { success: boolean, outboxId?: string, 
/**
 * RFC 3339: when it goes out.
 */
sendAt?: string, 
/**
 * 0 for a scheduled mail.
 */
undoSeconds?: number, scheduled?: boolean, 
/**
 * A scheduled mail: whether its copy is in Drafts; a draft: whether the mailbox has it.
 */
savedInGmail?: boolean, 
/**
 * A draft: its id, null when the sync does not know it yet.
 */
draftId?: string | null, message: string, };

export type OutboxResponse = { 
/**
 * Newest first.
 */
items: Array<OutboxItem>, };

export type OutboxItem = { id: string, kind: OutboxKind, state: OutboxState, 
/**
 * RFC 3339: when it goes out (end of the undo delay, or the scheduled time).
 */
sendAt: string, attempts: number, 
/**
 * RFC 3339, after a failure.
 */
nextTry: string | null, lastError: string | null, 
/**
 * False after a permanent refusal: waits for the user.
 */
retry: boolean, createdAt: string, mail: OutboxMail, };

export type OutboxKind = "send" | "draft";

export type OutboxState = "waiting" | "scheduled" | "sending" | "failed";

export type OutboxMail = { 
/**
 * Addresses, `"Name" <address>` when there is a name.
 */
to: Array<string>, cc: Array<string>, bcc: Array<string>, subject: string, 
/**
 * HTML.
 */
body: string, priority: string, from_name: string, inReplyTo: string | null, 
/**
 * The same as `inReplyTo`: compose sends it back under this name.
 */
originalMessageId: string | null, references: Array<string>, originalId: string | null, attachments: Array<UploadedAttachment>, 
/**
 * RFC 3339: the scheduled time of a scheduled mail.
 */
snoozed_until: string | null, };

export type UpdateOutboxResponse = { success: boolean, item: OutboxItem | null, savedInGmail?: boolean, draftId?: string | null, message?: string, };

export type UndoSendResponse = { success: boolean, mail: OutboxMail, };

export type RetryOutboxResponse = { success: boolean, item: OutboxItem, };

export type UploadedAttachment = { 
/**
 * The id a mail's `attachments` names.
 */
id: string, name: string, 
/**
 * Bytes.
 */
size: number, contentType: string, };

export type DraftsResponse = { total: number, 
/**
 * Newest first, then the drafts waiting in the outbox.
 */
drafts: Array<Draft>, };

export type Draft = { 
/**
 * The stored mail's id, or `outbox-<item id>` for a draft waiting in the outbox.
 */
id: string, 
/**
 * HTML.
 */
draftContent: string, to: string, toName: string, cc: Array<string>, subject: string, createdAt: string, isAutoReply: boolean, 
/**
 * False while the draft waits in the outbox for the mailbox.
 */
savedInGmail: boolean, 
/**
 * A draft in the mailbox: RFC 3339 when it is the copy of a scheduled mail, else null.
 */
scheduledAt?: string | null, outboxId: string | null, messageId: string | null, 
/**
 * A draft in the mailbox: the mail it answers, null when not found.
 */
originalEmail?: DraftOriginal | null, 
/**
 * A draft waiting in the outbox: why the mailbox did not take it.
 */
lastError?: string | null, };

export type DraftOriginal = { id: string, messageId: string | null, from: string, from_name: string, subject: string, 
/**
 * Sanitized HTML, remote content blocked.
 */
body: string, preview: string, date: string, status: string | null, };

export type DraftSaved = { success: boolean, 
/**
 * False: kept in the outbox until the mailbox answers.
 */
savedInGmail: boolean, 
/**
 * The draft's id (`outbox-…` while in the outbox); null when the sync does not know it yet.
 */
draftId: string | null, message: string, };

export type SaveDraftResponse = { shouldNavigate: boolean, success: boolean, 
/**
 * False: kept in the outbox until the mailbox answers.
 */
savedInGmail: boolean, 
/**
 * The draft's id (`outbox-…` while in the outbox); null when the sync does not know it yet.
 */
draftId: string | null, message: string, };

export type UpdateDraftResponse = { id: string | null, success: boolean, 
/**
 * False: kept in the outbox until the mailbox answers.
 */
savedInGmail: boolean, 
/**
 * The draft's id (`outbox-…` while in the outbox); null when the sync does not know it yet.
 */
draftId: string | null, message: string, };

export type DeleteDraftResponse = { success: boolean, message: string, };

export type DeleteAllDraftsResponse = { success: boolean, deletedCount: number, };

export type ComposeContactsResponse = { contacts: Array<ComposeContact>, };

export type ComposeContact = { id: string, name: string, email: string, 
/**
 * Mails to or from them among those read.
 */
count: number, 
/**
 * One of the user's contacts.
 */
saved: boolean, };

export type EmailAttachment = { 
/**
 * Position in the message's attachment list; the download endpoint's index.
 */
index: number, filename: string, contentType: string, size: number, contentId?: string, inline: boolean, };

export type Email = { id: string, accountId: number, threadId: string, messageId: string | null, from: string, from_name: string, to: Array<string>, cc: Array<string>, subject: string, preview: string, 
/**
 * RFC 3339.
 */
date: string, is_read: boolean, is_starred: boolean, is_answered: boolean, is_draft: boolean, 
/**
 * The mailbox's own labels: IMAP keywords without `$`, and the `$label` family
 * (`mailstore::keywords::is_label`); `GET /api/labels` gives their names and colours.
 */
labels: Array<string>, 
/**
 * Gmail's labels of the mail: the label folders it is in besides its own folder and the
 * labels X-GM-LABELS names, each once (decoded names, Hebrew readable). Absent on other
 * mailboxes.
 */
folderLabels?: Array<string>, status: string | null, priority: string | null, 
/**
 * RFC 3339: the mail's date or its last status change, whichever is later.
 */
lastActivity: string, folder: string, isSpam: boolean, isAdvertisement: boolean, 
/**
 * The spam engine's score in points when the mail was judged (null: never judged).
 */
spamScore: number | null, references: Array<string>, inReplyTo: string | null, originalMessageId: string | null, hasAttachments: boolean, attachments: Array<EmailAttachment>, size: number, 
/**
 * False when the message could not be decoded; its body is then shown as it arrived.
 */
parsed: boolean, };

export type EmailDetail = { 
/**
 * Sanitized on the server: safe to show in the sandboxed frame.
 */
body: string, bodyPlain: string, 
/**
 * Remote images were held back; `?remote=1` returns the body with them.
 */
remoteContentBlocked: boolean, 
/**
 * The sender is on the user's "always show remote content" list.
 */
remoteAllowedForSender?: boolean, id: string, accountId: number, threadId: string, messageId: string | null, from: string, from_name: string, to: Array<string>, cc: Array<string>, subject: string, preview: string, 
/**
 * RFC 3339.
 */
date: string, is_read: boolean, is_starred: boolean, is_answered: boolean, is_draft: boolean, 
/**
 * The mailbox's own labels: IMAP keywords without `$`, and the `$label` family
 * (`mailstore::keywords::is_label`); `GET /api/labels` gives their names and colours.
 */
labels: Array<string>, 
/**
 * Gmail's labels of the mail: the label folders it is in besides its own folder and the
 * labels X-GM-LABELS names, each once (decoded names, Hebrew readable). Absent on other
 * mailboxes.
 */
folderLabels?: Array<string>, status: string | null, priority: string | null, 
/**
 * RFC 3339: the mail's date or its last status change, whichever is later.
 */
lastActivity: string, folder: string, isSpam: boolean, isAdvertisement: boolean, 
/**
 * The spam engine's score in points when the mail was judged (null: never judged).
 */
spamScore: number | null, references: Array<string>, inReplyTo: string | null, originalMessageId: string | null, hasAttachments: boolean, attachments: Array<EmailAttachment>, size: number, 
/**
 * False when the message could not be decoded; its body is then shown as it arrived.
 */
parsed: boolean, };

export type Thread = { id: string, 
/**
 * The newest mail's subject.
 */
subject: string, hasNoSubject: boolean, count: number, 
/**
 * RFC 3339: the newest mail's date.
 */
lastDate: string, 
/**
 * True only when every mail is read.
 */
isRead: boolean, isStarred: boolean, 
/**
 * Statuses and IMAP labels, the most urgent first (the UI shows at most 2).
 */
labels: Array<string>, status: string | null, priority: string | null, hasAttachments: boolean, 
/**
 * Display names (or addresses) of the people in the thread.
 */
participants: Array<string>, 
/**
 * Newest first.
 */
emails: Array<Email>, };

export type UpdateEmailResponse = { success: boolean, email: Email, };

export type SetStatusResponse = { success: boolean, 
/**
 * The folder key the mail is listed under now: Archive, Spam, Promotions, Updates, inbox, …
 */
movedTo: string, email: Email, 
/**
 * The mail's thread in its folder.
 */
thread: Thread, };

export type DeleteEmailResponse = { success: boolean, deleted: number, };

export type TrashEmailResponse = { success: boolean, movedTo: string, };

export type BulkResponse = { success: boolean, updated: number, movedTo: string | null, emails: Array<Email>, };

export type AutoArchiveResponse = { success: boolean, archivedCount: number, };

export type RemoteSendersResponse = { senders: Array<string>, };

export type RemoteSenderAdded = { success: boolean, address: string, };

export type RemoteSenderRemoved = { success: boolean, removed: boolean, };

export type FoldersResponse = { folders: Array<FolderInfo>, };

export type FolderInfo = { accountId: number, name: string, displayName: string, role: string, total: number, unread: number, };

export type EmailCountsResponse = { inbox: number, unread: number, starred: number, needsReply: number, urgent: number, processed: number, spam: number, advertisements: number, info: number, sent: number, 
/**
 * Sent since midnight in the user's time zone (the settings page's quick stats).
 */
sentToday: number, drafts: number, trash: number, };

export type InboxZeroResponse = { needsReply: number, urgent: number, overdue: number, processed: number, reminders: Array<InboxZeroReminder>, autoArchive: Array<AutoArchiveCandidate>, autoArchiveCount: number, };

export type InboxZeroReminder = { id: string, subject: string, from: string, daysOverdue: number, };

export type AutoArchiveCandidate = { id: string, subject: string, status: string | null, };

export type FolderNode = { accountId: number, 
/**
 * The server's name: the id the rest of the API takes (`/api/threads/box:{path}`).
 */
path: string, 
/**
 * The last level, decoded (`ארכיון` for `INBOX.חשבוניות 2024.ארכיון`).
 */
name: string, 
/**
 * Every level below the prefix, decoded and joined by `/`.
 */
fullName: string, 
/**
 * The nearest folder above it that the mailbox has, else none (a top-level folder).
 */
parent: string | null, 
/**
 * inbox, sent, drafts, junk, trash, archive, snoozed, or "" for the user's own.
 */
role: string, depth: number, unread: number, total: number, 
/**
 * The server takes no keywords in this folder (PERMANENTFLAGS without `\*`, some
 * Outlook.com folders): statuses set here are kept only in mailclient, other mail clients
 * do not see them. False until the folder's first sync.
 */
statusesLocal: boolean, };

export type MailboxFolders = { accountId: number, email: string, folders: Array<FolderNode>, };

export type FolderTree = { mailboxes: Array<MailboxFolders>, };

export type CreateFolder = { accountId: number, parent?: string, name: string, };

export type RenameFolder = { accountId: number, path: string, name: string, parent?: string, };

export type DeleteFolder = { accountId: number, path: string, };

export type FolderDeleted = { folders: number, mails: number, tree: FolderTree, };

export type MoveMail = { ids: Array<string>, folder: string, };

export type MailMoved = { moved: number, };

export type Template = { id: string, name: string, 
/**
 * May hold `{{original_subject}}`.
 */
subject: string, 
/**
 * HTML.
 */
body: string, };

export type TemplateRequest = { name: string, subject: string, body: string, };

export type TemplatesResponse = { templates: Array<Template>, };

export type TemplateResponse = { success: boolean, template: Template, };

export type Sentiment = "positive" | "negative" | "neutral";

export type SummaryPriority = "low" | "medium" | "high" | "urgent";

export type SmartSummary = { summary: string, sentiment: Sentiment, priority: SummaryPriority, };

export type SmartSummaryResponse = { success: boolean, summary: string, sentiment: Sentiment, priority: SummaryPriority, };

export type SuggestedReply = { label: string, text: string, };

export type SuggestedRepliesResponse = { success: boolean, replies: Array<SuggestedReply>, };

export type SmartComposeResponse = { success: boolean, content: string, };

export type InsightsReplyTime = { medianHours: number | null, averageHours: number | null, samples: number, };

export type InsightsBacklog = { count: number, urgent: number, oldestDays: number | null, };

export type InsightsSender = { address: string, name: string, count: number, };

export type InsightsBusiestDay = { 
/**
 * 0 = Sunday.
 */
weekday: number, count: number, };

export type Insights = { periodDays: number, received: number, sent: number, replyTime: InsightsReplyTime, 
/**
 * answered ÷ (answered + still waiting for a reply); null when there is neither.
 */
replyRate: number | null, needsReply: InsightsBacklog, busiestSenders: Array<InsightsSender>, busiestDay: InsightsBusiestDay | null, };

export type GlobalSettingsExists = { exists: boolean, lastUpdated: string | null, updatedBy: string | null, };

export type GlobalEmailRequest = { claudeApiKey?: string, email_address: string, 
/**
 * Empty: the password already saved for this address.
 */
password: string, imap_server: string, imap_port: number | string, imap_ssl: boolean | string, smtp_server: string, smtp_port: number | string, smtp_ssl: boolean | string, 
/**
 * A certificate fingerprint the user accepted after seeing it.
 */
imap_fingerprint?: string, smtp_fingerprint?: string, };

export type GlobalEmailSettings = { email: string, passwordSet: boolean, claudeApiKeySet: boolean, lastUpdated: string, updatedBy: string, imapServer: string, imapPort: number, imapSsl: boolean, smtpServer: string, smtpPort: number, smtpSsl: boolean, };

export type GlobalEmailResponse = { hasSettings: boolean, settings: GlobalEmailSettings | null, };

export type GlobalSaved = { lastUpdated: string, updatedBy: string, };

export type GlobalSaveResponse = { success: boolean, message: string, settings: GlobalSaved, };

export type GlobalAiTrainingResponse = { hasSettings: boolean, settings: Partial<AiTrainingSettings> | null, lastUpdated: string | null, updatedBy: string | null, };

export type GlobalAiTrainingRequest = { settings: Partial<AiTrainingSettings>, };

export type AutoReplyTone = "professional" | "friendly" | "formal";

export type AutoReplyLength = "short" | "medium" | "long";

export type AutoReplySettings = { autoReplyEnabled: boolean, autoReplyOnlyWorkHours: boolean, 
/**
 * HH:MM in the user's time zone.
 */
autoReplyWorkStart: string, autoReplyWorkEnd: string, 
/**
 * 0 = Sunday … 6 = Saturday.
 */
autoReplyWorkDays: Array<number>, 
/**
 * Only mail addressed to the user in To, and not list mail.
 */
autoReplyOnlyPersonal: boolean, autoReplyTone: AutoReplyTone, autoReplyLength: AutoReplyLength, 
/**
 * 0.1 to 1.0.
 */
autoReplyCreativity: number, 
/**
 * Addresses and `@domain` entries, separated by commas or newlines.
 */
autoReplyBlacklist: string, autoReplyWhitelist: string, 
/**
 * 1 to 1000 (the spec's input says 50, its default 1000: 1000 is kept as the ceiling).
 */
autoReplyMaxPerDay: number, 
/**
 * One auto-reply per sender a day, and one per conversation.
 */
autoReplyNoRepeat: boolean, autoReplyExcludeAutomated: boolean, autoReplyExcludeSpam: boolean, autoReplyNotifications: boolean, 
/**
 * Minutes, 0.1 to 60.
 */
autoReplyCheckInterval: number, };

export type SaveAutoReplyResponse = { success: boolean, settings: AutoReplySettings, };

export type AutoReplyStats = { 
/**
 * Drafts written today (the user's day, in their time zone).
 */
todayCount: number, 
/**
 * Auto-reply drafts waiting in Drafts now.
 */
totalAutoReplyDrafts: number, 
/**
 * On, with a mailbox to watch.
 */
isMonitoring: boolean, 
/**
 * RFC 3339; null before the first check.
 */
lastCheck: string | null, remainingToday: number, maxPerDay: number, 
/**
 * Mail that arrived and waits for its check.
 */
waiting: number, };

export type AutoReplyReason = "answered" | "own_address" | "no_sender" | "blacklisted" | "not_whitelisted" | "automated" | "list_mail" | "spam" | "not_personal" | "outside_work_hours" | "sender_answered_today" | "thread_answered" | "daily_max" | "gone" | "failed";

export type AutoReplyActivityItem = { 
/**
 * RFC 3339.
 */
at: string, from: string, fromName: string, subject: string, reason: AutoReplyReason, 
/**
 * The reason in Hebrew.
 */
text: string, 
/**
 * A failure's cause.
 */
detail: string | null, 
/**
 * The draft is addressed to this Reply-To, of another domain than the sender's: the user
 * should look before sending (anyone can write a Reply-To).
 */
replyToElsewhere: string | null, };

export type AutoReplyActivity = { items: Array<AutoReplyActivityItem>, };

export type ClearAutoRepliesResponse = { success: boolean, clearedCount: number, };

export type ContactInput = { name: string, email: string, phone: string, company: string, position: string, groups: Array<string>, notes: string, };

export type Contact = { id: string, name: string, email: string, phone: string, company: string, position: string, groups: Array<string>, notes: string, 
/**
 * RFC 3339.
 */
created_date: string, updated_date: string, };

export type ContactsImported = { added: number, updated: number, 
/**
 * Cards without a name or an email, or malformed.
 */
skipped: number, };

export type ContactsResponse = { contacts: Array<Contact>, groups: Array<string>, };

export type ContactSuggestion = { name: string, email: string, 
/**
 * Mails to or from them among those read.
 */
count: number, };

export type ContactSuggestionsResponse = { suggestions: Array<ContactSuggestion>, };

export type ContactMailResponse = { emails: Array<SearchResult>, };

export type ContactDeleted = { success: boolean, };

export type TaskPriority = "low" | "medium" | "high" | "urgent";

export type TaskStatus = "pending" | "completed";

export type TaskInput = { title: string, description: string, priority: TaskPriority, 
/**
 * RFC 3339, or `YYYY-MM-DDTHH:MM` / `YYYY-MM-DD` in the user's time zone; empty: none.
 */
due_date: string, status?: TaskStatus, 
/**
 * The stored mail it came from.
 */
email_id?: string, };

export type Task = { id: string, title: string, description: string, priority: TaskPriority, 
/**
 * RFC 3339, or null.
 */
due_date: string | null, status: TaskStatus, created_date: string, completed_date: string | null, 
/**
 * The mail it came from (its stored id), and that mail's subject.
 */
email_id: string | null, email_subject: string | null, 
/**
 * Pending and past its due time.
 */
overdue: boolean, };

export type TasksResponse = { tasks: Array<Task>, 
/**
 * How many are open, and of them overdue (all tasks, whatever the filter).
 */
open: number, overdue: number, };

export type TaskDeleted = { success: boolean, };

export type Label = { id: string, 
/**
 * The IMAP keyword the mail carries (what an Email's `labels` lists).
 */
keyword: string, name: string, 
/**
 * `#rrggbb`.
 */
color: string, };

export type LabelsResponse = { labels: Array<Label>, 
/**
 * The colour of a keyword with no label record (another client's tag).
 */
defaultColor: string, 
/**
 * The colours the manager offers.
 */
palette: Array<string>, maxLabels: number, maxName: number, };

export type LabelRequest = { name?: string, 
/**
 * `#rrggbb`; none: the default colour (on create), unchanged (on update).
 */
color?: string, };

export type LabelDeleted = { success: boolean, unlabelled: number, };

export type RuleField = "from" | "to" | "subject" | "body" | "sender_domain" | "has_attachment" | "list_mail" | "size_above" | "header";

export type RuleCondition = { field: RuleField, 
/**
 * Reverses the test ("does not contain", "no attachment", …).
 */
negate: boolean, value: string, 
/**
 * For `header`: its name.
 */
header: string, };

export type RuleActionKind = "set_status" | "move_to_folder" | "add_label" | "mark_as_read" | "mark_as_starred" | "forward_to" | "delete";

export type RuleAction = { kind: RuleActionKind, value: string, };

export type RuleInput = { name: string, 
/**
 * New rules are active (spec).
 */
is_active: boolean, 
/**
 * All conditions (true) or any of them.
 */
match_all: boolean, conditions: Array<RuleCondition>, actions: Array<RuleAction>, 
/**
 * No rule after this one runs on a mail it matched.
 */
stop: boolean, 
/**
 * The forward address the user confirmed after seeing it (the form's confirm step): a
 * rule that forwards to a new address is saved only with it.
 */
confirm_forward?: string, };

export type Rule = { id: string, name: string, is_active: boolean, created_date: string, match_all: boolean, conditions: Array<RuleCondition>, actions: Array<RuleAction>, stop: boolean, 
/**
 * It forwards to an address the user has not confirmed (a restored rule): the forward
 * does not run until the rule is saved again with the address confirmed.
 */
forward_pending: boolean, 
/**
 * The folder its "move to folder" names when no mailbox of the user has it any more
 * (deleted on the server): the move does not run, and the rules page says so.
 */
missing_folder: string | null, };

export type RuleActionOutcome = { kind: RuleActionKind, value: string, ok: boolean, 
/**
 * Why it failed (Hebrew).
 */
error: string | null, };

export type RulesResponse = { rules: Array<Rule>, };

export type RuleDeleted = { success: boolean, };

export type RuleActiveRequest = { is_active: boolean, };

export type RulesOrderRequest = { ids: Array<string>, };

export type RulePreview = { count: number, 
/**
 * Inbox mails looked at (the newest, at most 5,000).
 */
scanned: number, 
/**
 * The first 20.
 */
sample: Array<RulePreviewMail>, };

export type RulePreviewMail = { id: string, subject: string, from: string, date: string, };

export type RuleRunResult = { matched: number, 
/**
 * Mails on which every action went through.
 */
applied: number, };

export type RuleActivityItem = { at: string, email_id: string, subject: string, from: string, outcomes: Array<RuleActionOutcome>, };

export type RuleActivityResponse = { items: Array<RuleActivityItem>, };

export type InviteMethod = "request" | "cancel" | "reply" | "counter" | "publish";

export type InviteAnswer = "needs-action" | "accepted" | "tentative" | "declined" | "delegated";

export type InvitePerson = { name: string, email: string, };

export type InviteAttendee = { name: string, email: string, answer: InviteAnswer, 
/**
 * Optional participation (ROLE=OPT-PARTICIPANT).
 */
optional: boolean, 
/**
 * A room or a resource, not a person.
 */
resource: boolean, };

export type InviteState = "active" | "cancelled" | "superseded";

export type InviteConflict = { title: string, 
/**
 * The overlapping occurrence, in words in the user's zone.
 */
when: string, };

export type Invitation = { method: InviteMethod, uid: string, title: string, description: string, location: string, organizer: InvitePerson | null, attendees: Array<InviteAttendee>, 
/**
 * Attendees beyond those listed.
 */
moreAttendees: number, 
/**
 * When, in words, in the user's time zone.
 */
when: string, 
/**
 * When in the event's own zone, where its clock differs from the user's.
 */
whenInEventZone: string | null, allDay: boolean, 
/**
 * RFC 3339 (null for an all-day event).
 */
start: string | null, end: string | null, 
/**
 * The recurrence in words ("כל שבוע ביום שני, 10 פעמים").
 */
recurrence: string | null, state: InviteState, 
/**
 * The user's answer: theirs from here, else what the invitation lists for them.
 */
answer: InviteAnswer | null, answerComment: string, 
/**
 * RFC 3339.
 */
answeredAt: string | null, 
/**
 * The event changed after the user answered.
 */
answerOutdated: boolean, 
/**
 * The user can answer it from here (an invitation to them, active, from someone else).
 */
canAnswer: boolean, conflicts: Array<InviteConflict>, 
/**
 * For an answer or a proposal sent to the user: who, and their note.
 */
fromAttendee: InviteAttendee | null, comment: string, 
/**
 * For an event the user organised: the answers that came back (address, answer).
 */
replies: Array<InviteAttendee>, };

export type InvitationResponse = { invitation: Invitation | null, };

export type InviteReplyRequest = { 
/**
 * accepted, tentative or declined.
 */
answer: InviteAnswer, comment?: string, };

export type McpScope = "read" | "triage" | "drafts";

export type McpToken = { id: string, name: string, scopes: Array<McpScope>, 
/**
 * RFC 3339.
 */
createdAt: string, lastUsedAt: string | null, calls: number, revokedAt: string | null, };

export type McpTokensResponse = { tokens: Array<McpToken>, 
/**
 * The endpoint's path on this server (`/mcp`).
 */
endpoint: string, };

export type McpTokenRequest = { name: string, scopes: Array<McpScope>, };

export type McpTokenCreated = { token: McpToken, secret: string, };

export type McpTokenRevoked = { success: boolean, };

export type McpCall = { 
/**
 * RFC 3339.
 */
at: string, method: string, target: string, ok: boolean, error: string | null, millis: number, };

export type McpCallsResponse = { calls: Array<McpCall>, };

export type SnoozeWokeBy = "time" | "reply" | "user";

export type SnoozeItem = { id: string, threadId: string, 
/**
 * The thread's newest mail here (to open it), when the store has it.
 */
emailId: string | null, subject: string, from: string, 
/**
 * RFC 3339.
 */
until: string, created: string, 
/**
 * RFC 3339, once woken.
 */
wokeAt: string | null, wokeBy: SnoozeWokeBy | null, };

export type SnoozeOptions = { laterToday: string | null, tomorrow: string, 
/**
 * Friday morning (Saturday morning on a Friday after eight).
 */
weekend: string, 
/**
 * Sunday morning, the first day of the next week.
 */
nextWeek: string, 
/**
 * The zone the times were read in.
 */
timezone: string, };

export type SnoozeListResponse = { snoozed: Array<SnoozeItem>, woken: Array<SnoozeItem>, };

export type SnoozeRequest = { 
/**
 * The mail whose thread is snoozed (POST only).
 */
emailId?: string, 
/**
 * laterToday, tomorrow, weekend or nextWeek.
 */
preset?: string, 
/**
 * RFC 3339, or `YYYY-MM-DDTHH:MM` in the user's time zone.
 */
until?: string, };

export type SnoozeResponse = { snooze: SnoozeItem, message: string, };

export type FollowUpSource = "ai" | "question" | "request" | "mark";

export type FollowUpState = "deciding" | "waiting" | "answered" | "dismissed";

export type FollowUpItem = { id: string, emailId: string, threadId: string, subject: string, to: Array<string>, 
/**
 * RFC 3339.
 */
sentAt: string, due: string, days: number, source: FollowUpSource, state: FollowUpState, 
/**
 * Its time passed with no answer.
 */
overdue: boolean, endedAt: string | null, };

export type FollowUpsResponse = { 
/**
 * Waiting for an answer, the soonest due first.
 */
awaiting: Array<FollowUpItem>, 
/**
 * How many of them are past their time (the Inbox Zero panel's line).
 */
overdue: number, 
/**
 * Answered or stopped lately, newest first.
 */
ended: Array<FollowUpItem>, };

export type FollowUpRequest = { 
/**
 * The sent mail to await an answer to (POST only).
 */
emailId?: string, 
/**
 * Days from the mail's sending (1–60); the preference `followUpDays` when absent.
 */
days?: number, 
/**
 * RFC 3339: remind at this time instead.
 */
remindAt?: string, };

export type FollowUpResponse = { followUp: FollowUpItem, message: string, };

export type NudgeResponse = { success: boolean, 
/**
 * False: the draft waits in the outbox until the mailbox answers.
 */
savedInGmail: boolean, draftId: string | null, 
/**
 * Written by the AI (else the template).
 */
byAi: boolean, 
/**
 * hebrew, english, arabic or russian: the sent mail's.
 */
language: string, message: string, };

export type SubscriptionVerdict = "ads" | "mixed" | "list";

export type UnsubscribeMethod = "one_click" | "mailto" | "link" | "body_link";

export type UnsubscribeState = "done" | "failed" | "waiting" | "opened";

export type UnsubscribeAttempt = { id: string, senderId: string, address: string, method: UnsubscribeMethod, target: string, state: UnsubscribeState, reason: string | null, 
/**
 * RFC 3339.
 */
at: string, };

export type Subscription = { id: string, address: string, name: string, listId: string | null, 
/**
 * Mail in the last 30 and 90 days, and how much of it the user opened.
 */
last30: number, last90: number, opened: number, verdict: SubscriptionVerdict, 
/**
 * RFC 3339: its newest mail.
 */
last: string, 
/**
 * How it can be left.
 */
oneClick: boolean, mailto: boolean, link: string | null, bodyLinks: Array<string>, blocked: boolean, unsubscribed: string | null, 
/**
 * The newest attempt to leave it.
 */
attempt: UnsubscribeAttempt | null, };

export type BlockTarget = "promotions" | "trash";

export type SubscriptionsResponse = { 
/**
 * The busiest in the last 90 days first.
 */
subscriptions: Array<Subscription>, 
/**
 * Every attempt to leave a sender, newest first.
 */
attempts: Array<UnsubscribeAttempt>, };

export type UnsubscribeResponse = { attempt: UnsubscribeAttempt, 
/**
 * Pages for the user to open (the list's page, the removal links): the server never
 * follows them.
 */
open: Array<string>, message: string, };

export type BlockRequest = { to: BlockTarget, };

export type BlockResponse = { 
/**
 * The rule made (the rules page shows and edits it).
 */
ruleId: string, message: string, };

export type ArchiveSenderResponse = { archived: number, message: string, };

export type SubscriptionsBulkRequest = { ids: Array<string>, 
/**
 * unsubscribe, archive or block.
 */
action: string, 
/**
 * For block: promotions or trash.
 */
to?: BlockTarget, };

export type SubscriptionsBulkResult = { id: string, ok: boolean, message: string, attempt: UnsubscribeAttempt | null, open: Array<string>, };

export type SubscriptionsBulkResponse = { results: Array<SubscriptionsBulkResult>, };

export type PushSpan = { from: number, to: number, };

export type PushQuiet = { night: PushSpan | null, shabbat: PushSpan | null, };

export type PushDevice = { id: number, 
/**
 * The push service's URL: the page compares it with its own subscription to find "this
 * device".
 */
endpoint: string, label: string, enabled: boolean, quiet: PushQuiet, 
/**
 * Unix seconds.
 */
created: number, lastSent: number | null, 
/**
 * Why the last delivery failed (Hebrew), when it did.
 */
lastError: string | null, 
/**
 * Notifications held by quiet hours, to be summed up when they end.
 */
held: number, };

export type PushOverview = { enabled: boolean, 
/**
 * The server's VAPID public key (base64url): the browser's `applicationServerKey`.
 */
publicKey: string, devices: Array<PushDevice>, };

export type PushKeys = { p256dh: string, auth: string, };

export type PushSubscribeRequest = { endpoint: string, keys: PushKeys, 
/**
 * The device's name as the page guessed it ("Chrome, Android").
 */
label: string, };

export type PushDeviceChange = { enabled?: boolean, quiet?: PushQuiet, label?: string, };

export type PushTestResponse = { message: string, };

export type BuilderContentResponse = { 
/**
 * False when `[builder] api_key` is empty: the page tells the admin where to set it.
 */
configured: boolean, 
/**
 * The space's public key (the SDK is initialized with it; it never fetches by itself).
 */
apiKey: string, 
/**
 * Where the empty page's button opens the editor.
 */
editorUrl: string, urlPath: string, 
/**
 * The entry (Builder's content JSON), or null when there is none for the path.
 */
entry: Record<string, unknown> | null, };

export type BuilderFormField = { key: string, value: string | number | boolean | null, };

export type BuilderFormRequest = { 
/**
 * The page the form is on (its entry holds the block).
 */
urlPath: string, 
/**
 * The form block's id in that entry.
 */
blockId: string, fields: Array<BuilderFormField>, };

export type BuilderFormAnswer = { ok: boolean, status: number, contentType: string, 
/**
 * The answer's text (at most 256 KB).
 */
body: string, 
/**
 * How it went: `mail` (through the user's mailbox), `builder` (Builder's form-submit),
 * `custom` (the block's action URL).
 */
deliveredBy: string, };

export type BackupInfo = { exists: boolean, createdAt: string | null, sections: Array<string>, };

export type BackupRequest = { masterPassword: string, };

export type BackupFileRequest = { masterPassword: string, file: string, };

export type BackupResponse = { success: boolean, message: string, createdAt: string | null, 
/**
 * The sections saved or restored.
 */
sections: Array<string>, 
/**
 * What a restore left out and why (Hebrew), e.g. a mailbox of another install's household.
 */
notes: Array<string>, };

export type MailAccountAuth = "password" | "google" | "microsoft";

export type MailAccount = { id: number, 
/**
 * The id as a string (the spec's name for it).
 */
sessionId: string, email_address: string, imap_fingerprint: string | null, smtp_fingerprint: string | null, 
/**
 * How the account signs in. Always sent (`Some`); optional in TypeScript so the web's
 * fixtures of password accounts from before OAuth stay valid (absent means "password").
 */
auth?: MailAccountAuth, 
/**
 * The provider refused the refresh token: the user must sign in again (sync waits).
 * Always sent (`Some`); absent in TypeScript means false.
 */
needsSignIn?: boolean, imap_server: string, imap_port: number, imap_ssl: boolean, smtp_server: string, smtp_port: number, smtp_ssl: boolean, };

export type SyncStatus = { 
/**
 * connecting, syncing, idle, error, or throttled (the provider slows the sync down:
 * `errorKind` "throttled", `error` says so in Hebrew, `nextRetryAt` when it goes on).
 */
state: string, 
/**
 * Unix seconds.
 */
lastSync: number | null, error: string | null, errorKind: string | null, 
/**
 * Since this process started: messages and bytes downloaded.
 */
fetchedMessages: number, fetchedBytes: number, initialSyncDone: boolean, 
/**
 * The server pushes new mail (IMAP IDLE); otherwise it is polled.
 */
idle: boolean, 
/**
 * After a failure: when the next attempt is due (Unix seconds).
 */
nextRetryAt: number | null, 
/**
 * The folders (decoded names) whose server takes no keywords (PERMANENTFLAGS without
 * `\*`): statuses set there are kept only here, other mail clients do not see them.
 */
localStatusFolders: Array<string>, };

export type MailAccountWithSync = { sync: SyncStatus | null, id: number, 
/**
 * The id as a string (the spec's name for it).
 */
sessionId: string, email_address: string, imap_fingerprint: string | null, smtp_fingerprint: string | null, 
/**
 * How the account signs in. Always sent (`Some`); optional in TypeScript so the web's
 * fixtures of password accounts from before OAuth stay valid (absent means "password").
 */
auth?: MailAccountAuth, 
/**
 * The provider refused the refresh token: the user must sign in again (sync waits).
 * Always sent (`Some`); absent in TypeScript means false.
 */
needsSignIn?: boolean, imap_server: string, imap_port: number, imap_ssl: boolean, smtp_server: string, smtp_port: number, smtp_ssl: boolean, };

export type MailAccountRequest = { email_address: string, 
/**
 * Empty: the password already saved for this address.
 */
password: string, imap_server: string, imap_port: number | string, imap_ssl: boolean | string, smtp_server: string, smtp_port: number | string, smtp_ssl: boolean | string, 
/**
 * A certificate fingerprint the user accepted after seeing it.
 */
imap_fingerprint?: string, smtp_fingerprint?: string, };

export type MailFailureKind = "auth" | "unreachable" | "tls" | "timeout" | "protocol";

export type ServerCheck = { ok: boolean, kind?: MailFailureKind, 
/**
 * Hebrew, ready to show.
 */
message?: string, 
/**
 * Technical detail (English, from the server or the library).
 */
detail?: string, 
/**
 * The untrusted certificate's fingerprint ("AB:CD:…"): absent when the check passed,
 * null on a failure that was not about the certificate.
 */
fingerprint?: string | null, };

export type ConnectionResult = { success: boolean, 
/**
 * `mail_connection_failed` on the 422.
 */
error?: string, message: string, imap: ServerCheck, smtp: ServerCheck, };

export type MailLoginResponse = { success: boolean, sessionId: string, message: string, account: MailAccount, };

export type MailLogoutResponse = { success: boolean, removed: number, message: string, };

export type MailAccountsResponse = { success: boolean, accounts: Array<MailAccountWithSync>, };

export type SyncRefreshResponse = { success: boolean, accounts: number, };

export type MailProvider = { id: string, 
/**
 * Shown in the UI (brand names stay in their own script).
 */
name: string, domains: Array<string>, 
/**
 * A short Hebrew hint, e.g. that an app password is needed.
 */
note: string, 
/**
 * `international` or `israeli` (the settings page groups the list by it).
 */
region: "international" | "israeli", imapServer: string, imapPort: number, imapSsl: boolean, smtpServer: string, smtpPort: number, smtpSsl: boolean, };

export type ProvidersResponse = { providers: Array<MailProvider>, };

export type DetectedProvider = { known: boolean, id: string, name: string, note: string, imapServer: string, imapPort: number, imapSsl: boolean, smtpServer: string, smtpPort: number, smtpSsl: boolean, };

export type DetectProviderResponse = { email: string, provider: DetectedProvider, };

export type BackupSectionName = "preferences" | "aiProvider" | "aiTraining" | "spamDetection" | "templates" | "autoReply" | "contacts" | "tasks" | "labels" | "rules" | "invitations" | "snoozes" | "followUps" | "unsubscribeAttempts" | "pushDevices" | "mailboxes";
