//! Plausible values for the computed attributes the generic mock fills at apply (or when it
//! reads a data source): an `id` shaped as its provider's ids (`vpc-0a1b…`, an Azure resource
//! id, `projects/…/…`), `arn`s, IP addresses, host names, JSON documents, lists for plural
//! names. Deterministic: every hash is of the resource type, the attribute and the object's
//! known arguments, never of a clock or a counter, so a re-run gives the same state.
//!
//! The rules are by provider family (the source's last segment) and attribute name; nothing
//! here knows a real provider's schema (see the README's list of differences).

use crate::eval::{Kind, Type, Value};
use sha1::{Digest, Sha1};

/// The account id and region a generic AWS object claims when its arguments say nothing.
pub const AWS_ACCOUNT: &str = "123456789012";
pub const AWS_REGION: &str = "us-east-1";
/// The subscription of generated Azure ids.
pub const AZURE_SUBSCRIPTION: &str = "00000000-0000-0000-0000-000000000000";

/// Entries of a list-valued computed attribute (three, like a region's availability zones).
pub const LIST_LEN: usize = 3;

/// The context of one object: its provider family, type and known arguments.
pub struct Object<'a> {
    /// `aws`, `azurerm`, `google`, ... (the source's type segment).
    pub family: &'a str,
    /// The serving provider configuration's `region`, when it writes one.
    pub region: Option<&'a str>,
    pub type_name: &'a str,
    pub value: &'a Value,
}

impl Object<'_> {
    /// The object's own `region`, else its provider configuration's, else us-east-1.
    fn region(&self) -> &str {
        self.arg("region").or(self.region).unwrap_or(AWS_REGION)
    }

    fn arg(&self, name: &str) -> Option<&str> {
        match &self.value.kind {
            Kind::Object(m) => m.get(name).and_then(Value::as_str),
            _ => None,
        }
    }

    /// `hex` characters of a hash of the type, the object's known arguments and `salt`.
    fn hex(&self, salt: &str, len: usize) -> String {
        let mut h = Sha1::new();
        h.update(self.type_name.as_bytes());
        h.update([0]);
        h.update(known_json(self.value).to_string().as_bytes());
        h.update([0]);
        h.update(salt.as_bytes());
        let digest: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        digest.chars().cycle().take(len).collect()
    }

    fn byte(&self, salt: &str) -> u8 {
        u8::from_str_radix(&self.hex(salt, 2), 16).unwrap_or(0)
    }

    /// The type without its provider prefix (`aws_vpc_endpoint` → `vpc_endpoint`).
    fn kind(&self) -> &str {
        self.type_name.split_once('_').map(|(_, k)| k).unwrap_or(self.type_name)
    }

    fn name_or_hex(&self, salt: &str) -> String {
        self.arg("name")
            .map(String::from)
            .unwrap_or_else(|| format!("{}-{}", self.kind().replace('_', "-"), self.hex(salt, 8)))
    }
}

/// The object's known, non-null arguments as JSON (what the hashes read).
fn known_json(v: &Value) -> serde_json::Value {
    match &v.kind {
        Kind::Object(m) => serde_json::Value::Object(crate::util::sort::json_map(
            m.iter()
                .filter(|(_, x)| x.is_wholly_known() && !x.is_null())
                .map(|(k, x)| (k.clone(), crate::eval::value_json::value(x))),
        )),
        _ => serde_json::Value::Null,
    }
}

/// The value of computed attribute `attr` of `obj`, of shape `shape` (a type from the
/// configuration's references: a list where it is indexed, an object where it is traversed;
/// dynamic or string where nothing tells).
pub fn value(obj: &Object<'_>, attr: &str, shape: &Type) -> Value {
    match shape {
        Type::List(_) | Type::Set(_) | Type::Tuple(_) => {
            let elem = match shape {
                Type::List(e) | Type::Set(e) => (**e).clone(),
                _ => Type::String,
            };
            let singular = singular(attr);
            Value::tuple((0..LIST_LEN).map(|i| value(obj, &format!("{singular}#{i}"), &elem)).collect())
        }
        Type::Object(keys) => Value::object(crate::util::sort::btree_map(
            keys.iter().map(|(k, t)| (k.clone(), value(obj, &format!("{attr}.{k}"), t))),
        )),
        Type::Map(elem) => Value::object(crate::util::sort::btree_map(
            (0..LIST_LEN).map(|i| (format!("key{i}"), value(obj, &format!("{attr}#{i}"), elem))),
        )),
        Type::Number => Value::int(i64::from(obj.byte(attr))),
        Type::Bool => Value::bool(obj.byte(attr) % 2 == 0),
        _ if is_plural(attr) => value(obj, attr, &Type::list(Type::String)),
        _ => Value::string(string(obj, attr)),
    }
}

/// `subnet_ids` → `subnet_id`, `names` → `name`, `addresses` → `address`.
fn singular(attr: &str) -> String {
    if let Some(s) = attr.strip_suffix("sses") {
        return format!("{s}ss");
    }
    if let Some(s) = attr.strip_suffix("ies") {
        return format!("{s}y");
    }
    attr.strip_suffix('s').unwrap_or(attr).to_string()
}

/// Plural names of lists providers commonly compute (`names`, `subnet_ids`, `private_ips`).
fn is_plural(attr: &str) -> bool {
    const LISTS: &[&str] =
        &["ids", "names", "arns", "ips", "addresses", "zones", "cidr_blocks", "endpoints", "servers", "keys"];
    LISTS.iter().any(|l| attr == *l || attr.ends_with(&format!("_{l}")))
}

/// A string for `attr` (after `#i` / `.key` decorations of list entries and object keys).
fn string(obj: &Object<'_>, attr: &str) -> String {
    let base = attr.rsplit(['.']).next().unwrap_or(attr).split('#').next().unwrap_or(attr);
    let region = obj.region();
    match base {
        "id" => id(obj, attr),
        "arn" => arn(obj, &id(obj, "id")),
        "account_id" | "owner_id" if obj.family == "aws" => AWS_ACCOUNT.into(),
        "region" => region.into(),
        "partition" => "aws".into(),
        "dns_suffix" => "amazonaws.com".into(),
        "json" | "policy" => known_json(obj.value).to_string(),
        // cloudinit_config renders its parts base64-encoded (its `base64_encode` default).
        "rendered" if obj.type_name.contains("cloudinit") => base64(known_json(obj.value).to_string().as_bytes()),
        "rfc3339" => "2026-01-01T00:00:00Z".into(),
        _ if base.ends_with("_arn") => {
            arn(obj, &format!("{}-{}", base.trim_end_matches("_arn").replace('_', "-"), obj.hex(attr, 8)))
        }
        _ if base.ends_with("_json") => known_json(obj.value).to_string(),
        _ if base.ends_with("cidr_block") || base == "cidr" => format!("10.{}.0.0/16", obj.byte(attr)),
        _ if base == "ip" || base.ends_with("_ip") || base.ends_with("ip_address") || base == "address" => {
            format!(
                "10.{}.{}.{}",
                obj.byte(&format!("{attr}1")),
                obj.byte(&format!("{attr}2")),
                obj.byte(&format!("{attr}3")).max(4)
            )
        }
        _ if base.contains("dns")
            || base == "endpoint"
            || base.ends_with("_endpoint")
            || base == "fqdn"
            || base.ends_with("hostname") =>
        {
            format!("{}.{}.mock.internal", obj.hex(attr, 8), obj.kind().replace('_', "-"))
        }
        _ if base.ends_with("_pem") || base.ends_with("_openssh") => {
            format!("-----BEGIN MOCK KEY-----\n{}\n-----END MOCK KEY-----\n", obj.hex(attr, 40))
        }
        _ if base.ends_with("_id") => id(obj, attr),
        "result" | "hex" | "b64_std" | "b64_url" | "dec" => obj.hex(attr, 16),
        _ => format!("{}-{}", base.replace('_', "-"), obj.hex(attr, 8)),
    }
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// An id as the family writes them.
fn id(obj: &Object<'_>, salt: &str) -> String {
    match obj.family {
        "aws" => match aws_prefix(obj.kind()) {
            Some(p) => format!("{p}-{}", obj.hex(salt, 17)),
            None => obj
                .arg("name")
                .or_else(|| obj.arg("bucket"))
                .map(String::from)
                .unwrap_or_else(|| format!("{}-{}", obj.kind().replace('_', "-"), obj.hex(salt, 17))),
        },
        "azurerm" | "azapi" => {
            let name = obj.name_or_hex(salt);
            if obj.kind() == "resource_group" {
                return format!("/subscriptions/{AZURE_SUBSCRIPTION}/resourceGroups/{name}");
            }
            let rg = obj.arg("resource_group_name").unwrap_or("mock-rg");
            format!(
                "/subscriptions/{AZURE_SUBSCRIPTION}/resourceGroups/{rg}/providers/Microsoft.Mock/{}/{name}",
                camel_plural(obj.kind())
            )
        }
        "google" | "google-beta" => {
            let project = obj.arg("project").unwrap_or("mock-project");
            format!(
                "projects/{project}/{}/{}",
                camel_plural(obj.kind().trim_start_matches("compute_")),
                obj.name_or_hex(salt)
            )
        }
        _ => obj.hex(salt, 16),
    }
}

/// An AWS ARN for an object whose id is `id`.
fn arn(obj: &Object<'_>, id: &str) -> String {
    let kind = obj.kind();
    // EC2's objects (the ones with `vpc-`, `subnet-`, ... ids) are EC2's, not a service of their own.
    let (service, rest) =
        if aws_prefix(kind).is_some() { ("ec2", kind) } else { kind.split_once('_').unwrap_or((kind, kind)) };
    let region = obj.region();
    match service {
        "s3" => format!("arn:aws:s3:::{id}"),
        "iam" => format!("arn:aws:iam::{AWS_ACCOUNT}:{}/{id}", rest.replace('_', "-")),
        _ => format!("arn:aws:{service}:{region}:{AWS_ACCOUNT}:{}/{id}", kind.replace('_', "-")),
    }
}

/// The id prefixes of common AWS EC2 objects (`vpc-…`, `subnet-…`, `i-…`).
fn aws_prefix(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "vpc" => "vpc",
        "subnet" => "subnet",
        "instance" => "i",
        "security_group" => "sg",
        "internet_gateway" => "igw",
        "nat_gateway" => "nat",
        "route_table" => "rtb",
        "eip" => "eipalloc",
        "network_interface" => "eni",
        "ebs_volume" => "vol",
        "network_acl" => "acl",
        "vpc_endpoint" => "vpce",
        "launch_template" => "lt",
        "ami" => "ami",
        "key_pair" => "key",
        "egress_only_internet_gateway" => "eigw",
        "vpc_peering_connection" => "pcx",
        "transit_gateway" => "tgw",
        "customer_gateway" => "cgw",
        "vpn_gateway" => "vgw",
        "flow_log" => "fl",
        _ => return None,
    })
}

/// `virtual_network` → `virtualNetworks`.
fn camel_plural(kind: &str) -> String {
    let mut out = String::new();
    for (i, part) in kind.split('_').enumerate() {
        let mut c = part.chars();
        match c.next() {
            Some(f) if i > 0 => {
                out.extend(f.to_uppercase());
                out.push_str(c.as_str());
            }
            Some(f) => {
                out.push(f);
                out.push_str(c.as_str());
            }
            None => {}
        }
    }
    out.push('s');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj<'a>(family: &'a str, type_name: &'a str, v: &'a Value) -> Object<'a> {
        Object { family, region: None, type_name, value: v }
    }

    fn args(pairs: &[(&str, &str)]) -> Value {
        Value::object(pairs.iter().map(|(k, v)| (k.to_string(), Value::string(*v))).collect())
    }

    #[test]
    fn ids_look_like_their_providers() {
        let v = args(&[("cidr_block", "10.0.0.0/16")]);
        let vpc = value(&obj("aws", "aws_vpc", &v), "id", &Type::Dynamic);
        let s = vpc.as_str().unwrap();
        assert!(s.starts_with("vpc-") && s.len() == 21, "{s}");
        assert_eq!(vpc, value(&obj("aws", "aws_vpc", &v), "id", &Type::Dynamic), "deterministic");
        let other = args(&[("cidr_block", "10.1.0.0/16")]);
        assert_ne!(vpc, value(&obj("aws", "aws_vpc", &other), "id", &Type::Dynamic), "another object, another id");
        let rg = args(&[("name", "app"), ("resource_group_name", "rg1")]);
        assert_eq!(
            value(&obj("azurerm", "azurerm_virtual_network", &rg), "id", &Type::Dynamic).as_str(),
            Some("/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg1/providers/Microsoft.Mock/virtualNetworks/app")
        );
        assert_eq!(
            value(&obj("google", "google_compute_network", &rg), "id", &Type::Dynamic).as_str(),
            Some("projects/mock-project/networks/app")
        );
        let role = args(&[("name", "deployer")]);
        assert_eq!(
            value(&obj("aws", "aws_iam_role", &role), "arn", &Type::Dynamic).as_str(),
            Some("arn:aws:iam::123456789012:role/deployer")
        );
    }

    #[test]
    fn shapes_and_plural_names_give_lists_and_objects() {
        let v = args(&[]);
        let o = obj("aws", "aws_availability_zones", &v);
        let names = value(&o, "names", &Type::Dynamic);
        assert!(matches!(&names.kind, Kind::Tuple(items) if items.len() == LIST_LEN));
        let tags = value(&o, "tags", &Type::Object([("Name".to_string(), Type::String)].into_iter().collect()));
        assert!(matches!(&tags.kind, Kind::Object(m) if m.contains_key("Name")));
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b"abc"), "YWJj");
        let ip = value(&o, "private_ip", &Type::Dynamic);
        assert!(ip.as_str().unwrap().starts_with("10."));
    }
}
