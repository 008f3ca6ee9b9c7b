//! The suite's harness is the workspace's one (`closewise_testkit::app`): `spawn_app_with`,
//! `TestApp` and its typed helpers, `both!` and `each_backend!`.

pub use closewise_testkit::app::*;
