//! Services and hooks by type, built once per application (`app::state`, walking every
//! feature's `init`) and kept in `AppState`: never process-global, so two applications in one
//! process share nothing.

use std::any::{Any, TypeId, type_name};
use std::collections::HashMap;
use std::sync::Arc;

/// Services and hooks by type, built once per application.
#[derive(Default)]
pub struct Registry(HashMap<TypeId, (&'static str, Box<dyn Any + Send + Sync>)>);

impl Registry {
    /// Adds `value` (a service, or a hook as `Arc<dyn Trait>`); a second of one type is a bug.
    pub fn insert<T: ?Sized + Send + Sync + 'static>(
        &mut self,
        value: Arc<T>,
        by: &'static str,
    ) -> anyhow::Result<()>
    where
        Arc<T>: Send + Sync,
    {
        if let Some((other, _)) = self.0.get(&TypeId::of::<T>()) {
            anyhow::bail!(
                "{} is provided twice: by {other} and {by}",
                type_name::<T>()
            );
        }
        self.0
            .insert(TypeId::of::<T>(), (by, Box::new(value.clone())));
        Ok(())
    }

    /// The value of type `T`, or an error naming it.
    pub fn get<T: ?Sized + 'static>(&self) -> anyhow::Result<Arc<T>> {
        self.0
            .get(&TypeId::of::<T>())
            .and_then(|(_, v)| v.downcast_ref::<Arc<T>>())
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("no feature provides {}", type_name::<T>()))
    }
}
