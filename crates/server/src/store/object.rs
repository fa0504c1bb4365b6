//! [`Store`] on object storage through the `object_store` crate: S3 and S3-compatible
//! stores, Google Cloud Storage, Azure Blob Storage. A key is an object under the URL's
//! prefix; a version is the object's entity tag (and version id where the store keeps
//! them); conditional writes are the store's own (`If-None-Match: *`, `If-Match`), so two
//! instances on one bucket never overwrite each other's update unseen.
//!
//! The client runs on the caller's runtime: a call waits for its answer without holding a
//! thread, and calls made together are in flight together.

use std::sync::Arc;

use futures_util::StreamExt as _;
use object_store::path::Path as ObjectPath;
use object_store::{
    ObjectStore, ObjectStoreExt as _, PutMode, PutOptions, PutPayload, UpdateVersion,
};
use url::Url;

use super::{Precondition, Store, StoreError, Version, Versioned, async_trait, check_key};

pub struct ObjectStoreBackend {
    inner: Arc<dyn ObjectStore>,
    prefix: ObjectPath,
    url: Url,
}

impl std::fmt::Debug for ObjectStoreBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ObjectStoreBackend({})", self.url)
    }
}

impl ObjectStoreBackend {
    /// The store at `url` (`s3://bucket/prefix`, `gs://…`, `az://…`), with credentials and
    /// settings from the environment (`AWS_*`, `GOOGLE_*`, `AZURE_*`, as each cloud's own
    /// tools read them; `AWS_ENDPOINT_URL` for an S3-compatible store).
    pub fn open(url: &Url) -> Result<ObjectStoreBackend, object_store::Error> {
        // The clients speak TLS through the tree's rustls, with its one crypto provider.
        siteops_plan::http::install_crypto_provider();
        let inner: Arc<dyn ObjectStore> = match url.scheme() {
            "s3" | "s3a" => Arc::new(
                object_store::aws::AmazonS3Builder::from_env()
                    .with_url(url.as_str())
                    .build()?,
            ),
            "gs" => Arc::new(
                object_store::gcp::GoogleCloudStorageBuilder::from_env()
                    .with_url(url.as_str())
                    .build()?,
            ),
            _ => Arc::new(
                object_store::azure::MicrosoftAzureBuilder::from_env()
                    .with_url(url.as_str())
                    .build()?,
            ),
        };
        Ok(Self::new(inner, url.clone()))
    }

    /// A backend over `inner`, keys under `url`'s path.
    pub fn new(inner: Arc<dyn ObjectStore>, url: Url) -> ObjectStoreBackend {
        ObjectStoreBackend {
            inner,
            prefix: ObjectPath::from(url.path().trim_matches('/')),
            url,
        }
    }

    fn path(&self, key: &str) -> Result<ObjectPath, StoreError> {
        check_key(key)?;
        Ok(key
            .split('/')
            .fold(self.prefix.clone(), |path, part| path.join(part)))
    }
}

fn object_error(key: &str) -> impl FnOnce(object_store::Error) -> StoreError + '_ {
    move |source| match source {
        object_store::Error::AlreadyExists { .. } | object_store::Error::Precondition { .. } => {
            StoreError::Conflict {
                key: key.to_string(),
            }
        }
        source => StoreError::Object {
            key: key.to_string(),
            source,
        },
    }
}

#[async_trait]
impl Store for ObjectStoreBackend {
    async fn get_versioned(&self, key: &str) -> Result<Option<Versioned>, StoreError> {
        let path = self.path(key)?;
        let read = async {
            let found = self.inner.get(&path).await?;
            let version = Version {
                e_tag: found.meta.e_tag.clone(),
                version: found.meta.version.clone(),
            };
            Ok::<_, object_store::Error>((found.bytes().await?.to_vec(), version))
        };
        match read.await {
            Ok((bytes, version)) => Ok(Some(Versioned { bytes, version })),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(object_error(key)(error)),
        }
    }

    async fn put_if(
        &self,
        key: &str,
        bytes: &[u8],
        condition: Precondition,
    ) -> Result<(), StoreError> {
        let path = self.path(key)?;
        let mode = match condition {
            Precondition::Always => PutMode::Overwrite,
            Precondition::Absent => PutMode::Create,
            Precondition::At(version) => PutMode::Update(UpdateVersion {
                e_tag: version.e_tag,
                version: version.version,
            }),
        };
        let payload = PutPayload::from(bytes.to_vec());
        self.inner
            .put_opts(&path, payload, PutOptions::from(mode))
            .await
            .map(|_| ())
            .map_err(object_error(key))
    }

    async fn delete(&self, key: &str) -> Result<bool, StoreError> {
        Ok(self.remove(key).await?.is_some())
    }

    async fn size(&self, key: &str) -> Result<Option<u64>, StoreError> {
        let path = self.path(key)?;
        match self.inner.head(&path).await {
            Ok(meta) => Ok(Some(meta.size)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(object_error(key)(error)),
        }
    }

    async fn remove(&self, key: &str) -> Result<Option<u64>, StoreError> {
        let path = self.path(key)?;
        // A delete of a missing object succeeds: the head says whether there was one.
        let removed = match self.inner.head(&path).await {
            Ok(meta) => self.inner.delete(&path).await.map(|()| Some(meta.size)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(error),
        };
        removed.map_err(object_error(key))
    }

    async fn total_size(&self, prefix: &str) -> Result<u64, StoreError> {
        let path = self.path(prefix)?;
        let mut objects = self.inner.list(Some(&path));
        let mut total = 0;
        while let Some(object) = objects.next().await {
            total += object.map_err(object_error(prefix))?.size;
        }
        Ok(total)
    }

    async fn list(&self, prefix: &str) -> Result<Vec<String>, StoreError> {
        let path = self.path(prefix)?;
        let listed = self
            .inner
            .list_with_delimiter(Some(&path))
            .await
            .map_err(object_error(prefix))?;
        let mut names: Vec<String> = listed
            .common_prefixes
            .iter()
            .filter_map(|p| p.filename().map(str::to_string))
            .chain(
                listed
                    .objects
                    .iter()
                    .filter_map(|o| o.location.filename().map(str::to_string)),
            )
            .filter(|name| !name.starts_with('.'))
            .collect();
        names.sort();
        names.dedup();
        Ok(names)
    }

    async fn delete_all(&self, prefix: &str) -> Result<(), StoreError> {
        let path = self.path(prefix)?;
        let mut objects = self.inner.list(Some(&path));
        while let Some(object) = objects.next().await {
            let object = object.map_err(object_error(prefix))?;
            self.inner
                .delete(&object.location)
                .await
                .map_err(object_error(prefix))?;
        }
        Ok(())
    }

    fn location(&self) -> String {
        self.url.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The backend over the crate's in-memory store, which keeps entity tags and
    /// conditional writes as a cloud store does.
    fn backend() -> ObjectStoreBackend {
        ObjectStoreBackend::new(
            Arc::new(object_store::memory::InMemory::new()),
            Url::parse("s3://bucket/team/a").expect("a URL"),
        )
    }

    #[tokio::test]
    async fn documents_folders_and_conditional_writes() {
        let store = backend();
        assert_eq!(store.get("config/a/sites/b.json").await.expect("get"), None);
        store
            .put("config/a/sites/b.json", b"{}")
            .await
            .expect("put");
        store
            .put("config/a/sites/b/secrets/s.json", b"{}")
            .await
            .expect("put");
        store
            .put("config/a/sites/c.json", b"{}")
            .await
            .expect("put");
        assert_eq!(
            store.list("config/a/sites").await.expect("list"),
            ["b", "b.json", "c.json"]
        );
        let read = store
            .get_versioned("config/a/sites/b.json")
            .await
            .expect("get");
        store
            .put("config/a/sites/b.json", b"{\"v\":2}")
            .await
            .expect("put");
        assert!(matches!(
            store
                .put_if(
                    "config/a/sites/b.json",
                    b"{\"v\":3}",
                    Precondition::unchanged(read.as_ref())
                )
                .await,
            Err(StoreError::Conflict { .. })
        ));
        assert!(matches!(
            store
                .put_if("config/a/sites/c.json", b"x", Precondition::Absent)
                .await,
            Err(StoreError::Conflict { .. })
        ));
        let store: Arc<dyn Store> = Arc::new(store);
        let mut attempts = 0;
        let other = &store;
        super::super::transact(&store, |view| {
            attempts += 1;
            let first = attempts == 1;
            Box::pin(async move {
                let seen = view.get("config/a/sites/b.json").await?.unwrap_or_default();
                if first {
                    // Someone else writes between this read and its write.
                    other.put("config/a/sites/b.json", b"{\"v\":4}").await?;
                }
                view.put("config/a/sites/b.json", &[seen, b"+".to_vec()].concat())
                    .await
            })
        })
        .await
        .expect("updated");
        assert_eq!(attempts, 2);
        assert_eq!(
            store
                .get("config/a/sites/b.json")
                .await
                .expect("get")
                .as_deref(),
            Some(&b"{\"v\":4}+"[..])
        );
        assert!(store.delete("config/a/sites/c.json").await.expect("delete"));
        assert!(
            !store
                .delete("config/a/sites/c.json")
                .await
                .expect("delete again")
        );
        store
            .delete_all("config/a/sites/b")
            .await
            .expect("delete all");
        assert_eq!(
            store.list("config/a/sites").await.expect("list"),
            ["b.json"]
        );
        assert_eq!(store.location(), "s3://bucket/team/a");
    }

    #[tokio::test]
    async fn sizes_removals_and_the_bytes_under_a_prefix() {
        let store = backend();
        store.put("p/a/media/m.png", &[0; 300]).await.expect("put");
        store.put("p/b.json", &[0; 7]).await.expect("put");
        store.put("q/other", &[0; 1000]).await.expect("put");
        assert_eq!(
            store.size("p/a/media/m.png").await.expect("size"),
            Some(300)
        );
        assert_eq!(store.size("p/a").await.expect("a prefix"), None);
        assert_eq!(store.total_size("p").await.expect("total"), 307);
        assert_eq!(
            store.remove("p/a/media/m.png").await.expect("remove"),
            Some(300)
        );
        assert_eq!(store.remove("p/a/media/m.png").await.expect("again"), None);
        assert_eq!(store.total_size("p").await.expect("total"), 7);
    }
}
