//! User management by an admin, and a user changing their own password.

use super::*;

#[tokio::test]
async fn admins_manage_users_while_serving() {
    let app = TestApp::new();
    let admin = app.admin_token("dana", "correct horse").await;

    let (s, v) = app
        .json(
            "POST",
            "/api/admin/users",
            Some(&admin),
            Some(json!({"username": "yossi", "name": "יוסי", "password": "yossi-password"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["user"]["role"], "user");
    let yossi_id = v["user"]["id"].as_u64().unwrap();
    let yossi = app.login("yossi", "yossi-password").await;

    // A plain user is refused every admin route.
    for (m, p) in [
        ("GET", "/api/admin/users".to_string()),
        ("DELETE", format!("/api/admin/users/{yossi_id}")),
    ] {
        let (s, v) = app.json(m, &p, Some(&yossi), None).await;
        assert_eq!(s, 403, "{m} {p}");
        assert_eq!(v["error"], "forbidden");
    }

    let (_, v) = app
        .json("GET", "/api/admin/users", Some(&admin), None)
        .await;
    let names: Vec<&str> = v["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["username"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["dana", "yossi"]);
    assert!(
        !v.to_string().contains("argon2"),
        "no hashes leave the server"
    );

    // Rename and promote; a password reset ends the user's sessions.
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/admin/users/{yossi_id}"),
            Some(&admin),
            Some(json!({"name": "יוסי לוי", "role": "admin", "password": "reset-password"})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["user"]["name"], "יוסי לוי");
    assert_eq!(v["user"]["role"], "admin");
    assert_eq!(
        app.json("GET", "/api/app/me", Some(&yossi), None).await.0,
        401
    );
    let yossi = app.login("yossi", "reset-password").await;

    // Nobody removes themselves; the last admin stays an admin.
    let dana_id = 1;
    let (s, v) = app
        .json(
            "DELETE",
            &format!("/api/admin/users/{dana_id}"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(s, 400);
    assert_eq!(v["message"], "אי אפשר למחוק את המשתמש שאיתו אתה מחובר");
    let (s, _) = app
        .json(
            "DELETE",
            &format!("/api/admin/users/{dana_id}"),
            Some(&yossi),
            None,
        )
        .await;
    assert_eq!(s, 200, "another admin can remove dana");
    assert_eq!(
        app.json("GET", "/api/app/me", Some(&admin), None).await.0,
        401
    );
    let (s, v) = app
        .json(
            "PUT",
            &format!("/api/admin/users/{yossi_id}"),
            Some(&yossi),
            Some(json!({"role": "user"})),
        )
        .await;
    assert_eq!(s, 400);
    assert_eq!(v["message"], "חייב להישאר לפחות מנהל מערכת אחד");

    let (s, _) = app
        .json("DELETE", "/api/admin/users/999", Some(&yossi), None)
        .await;
    assert_eq!(s, 404);
}

#[tokio::test]
async fn users_change_their_own_password() {
    let app = TestApp::new();
    let here = app.admin_token("dana", "correct horse").await;
    let elsewhere = app.login("dana", "correct horse").await;
    let change = |current: &str, new: &str| {
        app.json(
            "POST",
            "/api/app/password",
            Some(&here),
            Some(json!({"currentPassword": current, "newPassword": new})),
        )
    };
    let (s, v) = change("wrong", "a brand new one").await;
    assert_eq!(s, 400);
    assert_eq!(v["message"], "הסיסמה הנוכחית שגויה");
    let (s, _) = change("correct horse", "short").await;
    assert_eq!(s, 400);

    let (s, _) = change("correct horse", "a brand new one").await;
    assert_eq!(s, 200);
    assert_eq!(
        app.json("GET", "/api/app/me", Some(&here), None).await.0,
        200,
        "this session stays"
    );
    assert_eq!(
        app.json("GET", "/api/app/me", Some(&elsewhere), None)
            .await
            .0,
        401,
        "others end"
    );
    app.login("dana", "a brand new one").await;
}
