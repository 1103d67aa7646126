//! The fixtures as protobuf messages, written by hand with
//! `#[derive(prost::Message)]` (no protoc), and the conversions that real
//! code needs between its own types and the generated ones.

use crate::model::plain;

#[allow(missing_docs)]
#[derive(Clone, PartialEq, prost::Message)]
pub struct Order {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(string, tag = "2")]
    pub customer: String,
    #[prost(string, tag = "3")]
    pub email: String,
    #[prost(int64, tag = "4")]
    pub created: i64,
    #[prost(enumeration = "Status", tag = "5")]
    pub status: i32,
    #[prost(message, optional, tag = "6")]
    pub shipping: Option<Address>,
    #[prost(string, tag = "7")]
    pub currency: String,
    #[prost(double, tag = "8")]
    pub total: f64,
    #[prost(string, tag = "9")]
    pub notes: String,
    #[prost(message, repeated, tag = "10")]
    pub items: Vec<LineItem>,
}

#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum Status {
    Unspecified = 0,
    Pending = 1,
    Paid = 2,
    Shipped = 3,
    Delivered = 4,
    Cancelled = 5,
}

#[allow(missing_docs)]
#[derive(Clone, PartialEq, prost::Message)]
pub struct Address {
    #[prost(string, tag = "1")]
    pub street: String,
    #[prost(string, tag = "2")]
    pub city: String,
    #[prost(string, tag = "3")]
    pub zip: String,
    #[prost(string, tag = "4")]
    pub country: String,
}

#[allow(missing_docs)]
#[derive(Clone, PartialEq, prost::Message)]
pub struct LineItem {
    #[prost(string, tag = "1")]
    pub sku: String,
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(uint32, tag = "3")]
    pub quantity: u32,
    #[prost(uint64, tag = "4")]
    pub unit_price: u64,
    #[prost(uint64, optional, tag = "5")]
    pub discount: Option<u64>,
}

#[allow(missing_docs)]
#[derive(Clone, PartialEq, prost::Message)]
pub struct Profile {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(string, repeated, tag = "3")]
    pub roles: Vec<String>,
    #[prost(message, optional, tag = "4")]
    pub features: Option<Features>,
    #[prost(string, tag = "5")]
    pub email: String,
    #[prost(string, tag = "6")]
    pub bio: String,
    #[prost(message, repeated, tag = "7")]
    pub links: Vec<Link>,
    #[prost(message, optional, tag = "8")]
    pub stats: Option<Stats>,
    #[prost(bool, tag = "9")]
    pub verified: bool,
}

#[allow(missing_docs)]
#[derive(Clone, PartialEq, prost::Message)]
pub struct Features {
    #[prost(bool, tag = "1")]
    pub negotiation: bool,
    #[prost(string, tag = "2")]
    pub fallback: String,
    #[prost(string, optional, tag = "3")]
    pub compression: Option<String>,
}

#[allow(missing_docs)]
#[derive(Clone, PartialEq, prost::Message)]
pub struct Link {
    #[prost(string, tag = "1")]
    pub rel: String,
    #[prost(string, tag = "2")]
    pub href: String,
}

#[allow(missing_docs)]
#[derive(Clone, PartialEq, prost::Message)]
pub struct Stats {
    #[prost(uint32, tag = "1")]
    pub followers: u32,
    #[prost(uint32, tag = "2")]
    pub following: u32,
    #[prost(uint32, tag = "3")]
    pub repositories: u32,
    #[prost(float, tag = "4")]
    pub score: f32,
}

#[allow(missing_docs)]
#[derive(Clone, PartialEq, prost::Message)]
pub struct Logs {
    #[prost(message, repeated, tag = "1")]
    pub records: Vec<LogRecord>,
}

#[allow(missing_docs)]
#[derive(Clone, PartialEq, prost::Message)]
pub struct LogRecord {
    #[prost(string, tag = "1")]
    pub ip: String,
    #[prost(string, tag = "2")]
    pub identity: String,
    #[prost(string, tag = "3")]
    pub user_id: String,
    #[prost(uint64, tag = "4")]
    pub timestamp: u64,
    #[prost(string, tag = "5")]
    pub method: String,
    #[prost(string, tag = "6")]
    pub path: String,
    #[prost(uint32, tag = "7")]
    pub status: u32,
    #[prost(uint64, tag = "8")]
    pub size: u64,
}

#[allow(missing_docs)]
#[derive(Clone, PartialEq, prost::Message)]
pub struct Mesh {
    #[prost(message, repeated, tag = "1")]
    pub triangles: Vec<Triangle>,
}

#[allow(missing_docs)]
#[derive(Clone, PartialEq, prost::Message)]
pub struct Triangle {
    #[prost(message, optional, tag = "1")]
    pub v0: Option<Vec3>,
    #[prost(message, optional, tag = "2")]
    pub v1: Option<Vec3>,
    #[prost(message, optional, tag = "3")]
    pub v2: Option<Vec3>,
    #[prost(message, optional, tag = "4")]
    pub normal: Option<Vec3>,
}

#[allow(missing_docs)]
#[derive(Clone, Copy, PartialEq, prost::Message)]
pub struct Vec3 {
    #[prost(float, tag = "1")]
    pub x: f32,
    #[prost(float, tag = "2")]
    pub y: f32,
    #[prost(float, tag = "3")]
    pub z: f32,
}

#[allow(missing_docs)]
#[derive(Clone, PartialEq, prost::Message)]
pub struct Ints {
    #[prost(sint64, repeated, tag = "1")]
    pub values: Vec<i64>,
}

/// Conversions between the application types and the prost types, both
/// ways, as an application that uses prost writes them.
pub trait Proto: Sized {
    /// The prost message.
    type Message: prost::Message + Default + PartialEq + 'static;

    /// The message for this value.
    fn to_proto(&self) -> Self::Message;

    /// The value of a message; `None` when a required part is missing.
    fn from_proto(message: Self::Message) -> Option<Self>;
}

impl Proto for plain::Order {
    type Message = Order;

    fn to_proto(&self) -> Order {
        Order {
            id: self.id,
            customer: self.customer.clone(),
            email: self.email.clone(),
            created: self.created,
            status: status_to_proto(self.status) as i32,
            shipping: Some(Address {
                street: self.shipping.street.clone(),
                city: self.shipping.city.clone(),
                zip: self.shipping.zip.clone(),
                country: self.shipping.country.clone(),
            }),
            currency: self.currency.clone(),
            total: self.total,
            notes: self.notes.clone(),
            items: self
                .items
                .iter()
                .map(|item| LineItem {
                    sku: item.sku.clone(),
                    name: item.name.clone(),
                    quantity: item.quantity,
                    unit_price: item.unit_price,
                    discount: item.discount,
                })
                .collect(),
        }
    }

    fn from_proto(message: Order) -> Option<Self> {
        let shipping = message.shipping?;
        Some(plain::Order {
            id: message.id,
            customer: message.customer,
            email: message.email,
            created: message.created,
            status: status_from_proto(Status::try_from(message.status).ok()?)?,
            shipping: plain::Address {
                street: shipping.street,
                city: shipping.city,
                zip: shipping.zip,
                country: shipping.country,
            },
            currency: message.currency,
            total: message.total,
            notes: message.notes,
            items: message
                .items
                .into_iter()
                .map(|item| plain::LineItem {
                    sku: item.sku,
                    name: item.name,
                    quantity: item.quantity,
                    unit_price: item.unit_price,
                    discount: item.discount,
                })
                .collect(),
        })
    }
}

fn status_to_proto(status: plain::Status) -> Status {
    match status {
        plain::Status::Pending => Status::Pending,
        plain::Status::Paid => Status::Paid,
        plain::Status::Shipped => Status::Shipped,
        plain::Status::Delivered => Status::Delivered,
        plain::Status::Cancelled => Status::Cancelled,
    }
}

fn status_from_proto(status: Status) -> Option<plain::Status> {
    Some(match status {
        Status::Unspecified => return None,
        Status::Pending => plain::Status::Pending,
        Status::Paid => plain::Status::Paid,
        Status::Shipped => plain::Status::Shipped,
        Status::Delivered => plain::Status::Delivered,
        Status::Cancelled => plain::Status::Cancelled,
    })
}

impl Proto for plain::Profile {
    type Message = Profile;

    fn to_proto(&self) -> Profile {
        Profile {
            id: self.id,
            name: self.name.clone(),
            roles: self.roles.clone(),
            features: Some(Features {
                negotiation: self.features.negotiation,
                fallback: self.features.fallback.clone(),
                compression: self.features.compression.clone(),
            }),
            email: self.email.clone(),
            bio: self.bio.clone(),
            links: self
                .links
                .iter()
                .map(|l| Link {
                    rel: l.rel.clone(),
                    href: l.href.clone(),
                })
                .collect(),
            stats: Some(Stats {
                followers: self.stats.followers,
                following: self.stats.following,
                repositories: self.stats.repositories,
                score: self.stats.score,
            }),
            verified: self.verified,
        }
    }

    fn from_proto(message: Profile) -> Option<Self> {
        let features = message.features?;
        let stats = message.stats?;
        Some(plain::Profile {
            id: message.id,
            name: message.name,
            roles: message.roles,
            features: plain::Features {
                negotiation: features.negotiation,
                fallback: features.fallback,
                compression: features.compression,
            },
            email: message.email,
            bio: message.bio,
            links: message
                .links
                .into_iter()
                .map(|l| plain::Link {
                    rel: l.rel,
                    href: l.href,
                })
                .collect(),
            stats: plain::Stats {
                followers: stats.followers,
                following: stats.following,
                repositories: stats.repositories,
                score: stats.score,
            },
            verified: message.verified,
        })
    }
}

impl Proto for plain::Logs {
    type Message = Logs;

    fn to_proto(&self) -> Logs {
        let records = self.records.iter().map(|r| LogRecord {
            ip: r.ip.clone(),
            identity: r.identity.clone(),
            user_id: r.user_id.clone(),
            timestamp: r.timestamp,
            method: r.method.clone(),
            path: r.path.clone(),
            status: r.status as u32,
            size: r.size,
        });
        Logs {
            records: records.collect(),
        }
    }

    fn from_proto(message: Logs) -> Option<Self> {
        let records = message.records.into_iter().map(|r| {
            Some(plain::LogRecord {
                ip: r.ip,
                identity: r.identity,
                user_id: r.user_id,
                timestamp: r.timestamp,
                method: r.method,
                path: r.path,
                status: u16::try_from(r.status).ok()?,
                size: r.size,
            })
        });
        Some(plain::Logs {
            records: records.collect::<Option<_>>()?,
        })
    }
}

fn vec3_to_proto(v: &plain::Vec3) -> Option<Vec3> {
    Some(Vec3 {
        x: v.x,
        y: v.y,
        z: v.z,
    })
}

fn vec3_from_proto(v: Option<Vec3>) -> Option<plain::Vec3> {
    v.map(|v| plain::Vec3 {
        x: v.x,
        y: v.y,
        z: v.z,
    })
}

impl Proto for plain::Mesh {
    type Message = Mesh;

    fn to_proto(&self) -> Mesh {
        let triangles = self.triangles.iter().map(|t| Triangle {
            v0: vec3_to_proto(&t.v0),
            v1: vec3_to_proto(&t.v1),
            v2: vec3_to_proto(&t.v2),
            normal: vec3_to_proto(&t.normal),
        });
        Mesh {
            triangles: triangles.collect(),
        }
    }

    fn from_proto(message: Mesh) -> Option<Self> {
        let triangles = message.triangles.into_iter().map(|t| {
            Some(plain::Triangle {
                v0: vec3_from_proto(t.v0)?,
                v1: vec3_from_proto(t.v1)?,
                v2: vec3_from_proto(t.v2)?,
                normal: vec3_from_proto(t.normal)?,
            })
        });
        Some(plain::Mesh {
            triangles: triangles.collect::<Option<_>>()?,
        })
    }
}

impl Proto for plain::Ints {
    type Message = Ints;

    fn to_proto(&self) -> Ints {
        Ints {
            values: self.values.clone(),
        }
    }

    fn from_proto(message: Ints) -> Option<Self> {
        Some(plain::Ints {
            values: message.values,
        })
    }
}
