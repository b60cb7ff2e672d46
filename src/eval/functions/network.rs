//! The IP network functions (Terraform's `internal/lang/funcs/cidr.go`): `cidrhost`,
//! `cidrnetmask`, `cidrsubnet`, `cidrsubnets`, for IPv4 and IPv6.
//!
//! Written as the Go they run on, quirks included, because real configurations lean on the
//! exact results: Terraform's `ipaddr.ParseCIDR` (Go 1.16's parser: `010.0.0.0/8` is
//! 10.0.0.0/8), go-cidr's `HostBig`/`SubnetBig`/`PreviousSubnet`/`NextSubnet` (big-integer
//! arithmetic with two's-complement OR for negative numbers, `num.Uint64()` range checks) and
//! Go's `net.IP`/`net.IPNet` printing. Addresses are byte vectors of 4 or 16 as in Go, `None`
//! where Go has a nil slice.

use super::numeric::go_int;
use super::{FuncError, Function, Param, Registry, Returns};
use crate::eval::number::Number;
use crate::eval::types::Type;
use crate::eval::value::Value;
use num_bigint::{BigInt, Sign};

type Ip = Option<Vec<u8>>;

/// A `net.IPNet`.
struct Net {
    ip: Ip,
    mask: Ip,
}

const V4_IN_V6: [u8; 12] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/// Go's `dtoi`: a decimal prefix below 0xFFFFFF.
fn dtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        n = n * 10 + (s[i] - b'0') as u32;
        if n >= 0xFFFFFF {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

fn xtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_hexdigit() {
        n = n * 16 + (s[i] as char).to_digit(16).unwrap_or(0);
        if n >= 0xFFFFFF {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

fn parse_v4(mut s: &[u8]) -> Option<[u8; 4]> {
    let mut p = [0u8; 4];
    for (i, slot) in p.iter_mut().enumerate() {
        if s.is_empty() {
            return None;
        }
        if i > 0 {
            if s[0] != b'.' {
                return None;
            }
            s = &s[1..];
        }
        let (n, c) = dtoi(s)?;
        if n > 0xFF {
            return None;
        }
        s = &s[c..];
        *slot = n as u8;
    }
    s.is_empty().then_some(p)
}

fn parse_v6(mut s: &[u8]) -> Option<[u8; 16]> {
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.len() >= 2 && s[0] == b':' && s[1] == b':' {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Some(ip);
        }
    }
    let mut i = 0;
    while i < 16 {
        let (n, c) = xtoi(s)?;
        if n > 0xFFFF {
            return None;
        }
        if c < s.len() && s[c] == b'.' {
            if ellipsis.is_none() && i != 12 || i + 4 > 16 {
                return None;
            }
            let v4 = parse_v4(s)?;
            ip[i..i + 4].copy_from_slice(&v4);
            s = &[];
            i += 4;
            break;
        }
        ip[i] = (n >> 8) as u8;
        ip[i + 1] = n as u8;
        i += 2;
        s = &s[c..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' || s.len() == 1 {
            return None;
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return None;
    }
    if i < 16 {
        let e = ellipsis?;
        let n = 16 - i;
        for j in (e..i).rev() {
            ip[j + n] = ip[j];
        }
        for b in ip.iter_mut().skip(e).take(n) {
            *b = 0;
        }
    } else if ellipsis.is_some() {
        return None;
    }
    Some(ip)
}

/// Go's `net.CIDRMask`.
fn cidr_mask(ones: i64, bits: i64) -> Ip {
    if bits != 32 && bits != 128 || ones < 0 || ones > bits {
        return None;
    }
    let mut m = vec![0u8; (bits / 8) as usize];
    let mut n = ones;
    for b in m.iter_mut() {
        if n >= 8 {
            *b = 0xff;
            n -= 8;
        } else {
            *b = !(0xffu8.checked_shr(n as u32).unwrap_or(0));
            n = 0;
        }
    }
    Some(m)
}

/// Go's `IP.To4`.
fn to4(ip: &[u8]) -> Option<Vec<u8>> {
    match ip.len() {
        4 => Some(ip.to_vec()),
        16 if ip[..12] == V4_IN_V6 => Some(ip[12..].to_vec()),
        _ => None,
    }
}

/// Go's `IP.Mask`.
fn apply_mask(ip: &Ip, mask: &Ip) -> Ip {
    let (Some(ip), Some(mask)) = (ip, mask) else { return None };
    let mut ip: &[u8] = ip;
    let mut mask: &[u8] = mask;
    if mask.len() == 16 && ip.len() == 4 && mask[..12].iter().all(|&b| b == 0xff) {
        mask = &mask[12..];
    }
    if mask.len() == 4 && ip.len() == 16 && ip[..12] == V4_IN_V6 {
        ip = &ip[12..];
    }
    (ip.len() == mask.len()).then(|| ip.iter().zip(mask).map(|(a, b)| a & b).collect())
}

/// Go's `IPMask.Size`: leading ones and total bits, (0, 0) for a non-canonical mask.
fn mask_size(mask: &Ip) -> (i64, i64) {
    let Some(m) = mask else { return (0, 0) };
    match simple_mask_length(m) {
        Some(ones) => (ones, m.len() as i64 * 8),
        None => (0, 0),
    }
}

fn simple_mask_length(m: &[u8]) -> Option<i64> {
    let mut n = 0;
    for (i, &b) in m.iter().enumerate() {
        if b == 0xff {
            n += 8;
            continue;
        }
        let ones = b.leading_ones();
        if b << ones != 0 || m[i + 1..].iter().any(|&x| x != 0) {
            return None;
        }
        return Some(n + ones as i64);
    }
    Some(n)
}

/// Go's `IP.String`.
fn ip_string(ip: &Ip) -> String {
    let Some(ip) = ip else { return "<nil>".into() };
    if ip.is_empty() {
        return "<nil>".into();
    }
    if let Some(p4) = to4(ip) {
        return format!("{}.{}.{}.{}", p4[0], p4[1], p4[2], p4[3]);
    }
    if ip.len() != 16 {
        return format!("?{}", hex(ip));
    }
    let groups: Vec<u16> = ip.chunks(2).map(|c| (c[0] as u16) << 8 | c[1] as u16).collect();
    let (mut zs, mut ze) = (8usize, 8usize);
    let mut i = 0;
    while i < 8 {
        let mut j = i;
        while j < 8 && groups[j] == 0 {
            j += 1;
        }
        if j - i >= 2 && (zs == 8 || j - i > ze - zs) {
            zs = i;
            ze = j;
        }
        i = j.max(i + 1);
    }
    let mut out = String::new();
    let mut k = 0;
    while k < 8 {
        if k == zs {
            out.push_str("::");
            k = ze;
            continue;
        }
        if k > 0 && !out.ends_with(':') {
            out.push(':');
        }
        out.push_str(&format!("{:x}", groups[k]));
        k += 1;
    }
    out
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Go's `IPNet.String`.
fn net_string(n: &Net) -> String {
    let Some((nn, m)) = network_number_and_mask(n) else { return "<nil>".into() };
    match simple_mask_length(&m) {
        Some(l) => format!("{}/{}", ip_string(&Some(nn)), l),
        None => format!("{}/{}", ip_string(&Some(nn)), hex(&m)),
    }
}

fn network_number_and_mask(n: &Net) -> Option<(Vec<u8>, Vec<u8>)> {
    let ip = n.ip.as_ref()?;
    let ip = match to4(ip) {
        Some(v4) => v4,
        None if ip.len() == 16 => ip.clone(),
        None => return None,
    };
    let m = n.mask.as_ref()?;
    let m = match m.len() {
        4 if ip.len() == 4 => m.clone(),
        4 => return None,
        16 if ip.len() == 4 => m[12..].to_vec(),
        16 => m.clone(),
        _ => return None,
    };
    Some((ip, m))
}

fn contains(n: &Net, ip: &Ip) -> bool {
    let Some((nn, m)) = network_number_and_mask(n) else { return false };
    let Some(ip) = ip else { return false };
    let ip = to4(ip).unwrap_or_else(|| ip.clone());
    ip.len() == nn.len() && (0..ip.len()).all(|i| nn[i] & m[i] == ip[i] & m[i])
}

/// Terraform's `ipaddr.ParseCIDR`, with its error text.
fn parse_cidr(s: &str) -> Result<Net, String> {
    let bad = || format!("invalid CIDR address: {s}");
    let i = s.find('/').ok_or_else(bad)?;
    let (addr, mask) = (&s.as_bytes()[..i], &s.as_bytes()[i + 1..]);
    let (ip, iplen): (Vec<u8>, i64) = match parse_v4(addr) {
        Some(v4) => ([&V4_IN_V6[..], &v4[..]].concat(), 4),
        None => (parse_v6(addr).ok_or_else(bad)?.to_vec(), 16),
    };
    let (n, c) = dtoi(mask).ok_or_else(bad)?;
    if c != mask.len() || n as i64 > 8 * iplen {
        return Err(bad());
    }
    let m = cidr_mask(n as i64, 8 * iplen);
    Ok(Net { ip: apply_mask(&Some(ip), &m), mask: m })
}

fn big_of(n: &Number) -> BigInt {
    match n {
        Number::Finite { neg, mant, exp } if *exp >= 0 => {
            let v = BigInt::from(mant.clone()) << (*exp as u64);
            if *neg {
                -v
            } else {
                v
            }
        }
        _ => BigInt::from(0),
    }
}

/// gocty's conversion to a `*big.Int`.
fn go_big(v: &Value) -> Result<BigInt, String> {
    v.as_number().filter(|n| n.is_integer()).map(big_of).ok_or_else(|| "value must be a whole number".to_string())
}

/// Go's `big.Int.Uint64` (the low 64 bits of the magnitude).
fn low_u64(n: &BigInt) -> u64 {
    n.magnitude().iter_u64_digits().next().unwrap_or(0)
}

fn ip_to_int(ip: &[u8]) -> (BigInt, i64) {
    (BigInt::from_bytes_be(Sign::Plus, ip), ip.len() as i64 * 8)
}

/// go-cidr's `intToIP`; Go panics (index out of range) when the number is too wide.
fn int_to_ip(v: &BigInt, bits: i64) -> Result<Vec<u8>, String> {
    let bytes = if v.sign() == Sign::NoSign { Vec::new() } else { v.magnitude().to_bytes_be() };
    let n = (bits / 8) as usize;
    if bytes.len() > n {
        return Err("panic in function implementation: runtime error: index out of range [-1]".into());
    }
    let mut ret = vec![0u8; n];
    ret[n - bytes.len()..].copy_from_slice(&bytes);
    Ok(ret)
}

/// go-cidr's `insertNumIntoIP`: `ip | num << (bits - prefix_len)`, two's complement.
fn insert_num(ip: &[u8], num: &BigInt, prefix_len: i64) -> Result<Vec<u8>, String> {
    let (ip_int, total) = ip_to_int(ip);
    let shift = total.saturating_sub(prefix_len);
    // A non-zero number shifted past the address cannot fit it: Go panics in intToIP (or runs
    // out of memory first, for a shift of billions of bits); we stop before shifting.
    if shift > 256 && num.sign() != Sign::NoSign {
        return Err("panic in function implementation: runtime error: index out of range [-1]".into());
    }
    let shifted = if shift >= 0 { num << (shift as u64) } else { num >> ((-shift) as u64) };
    int_to_ip(&(ip_int | shifted), total)
}

fn host(net: &Net, mut num: BigInt) -> Result<Ip, String> {
    let (parent, addr_len) = mask_size(&net.mask);
    let max = (BigInt::from(1) << ((addr_len - parent).max(0) as u64)) - 1;
    let mut check = BigInt::from(low_u64(&num) as i64);
    if num.sign() == Sign::Minus {
        check = -num.clone() - 1;
        num = &max - &check;
    }
    if check > max {
        return Err(format!("prefix of {parent} does not accommodate a host numbered {num}"));
    }
    let Some(ip) = &net.ip else { return Ok(None) };
    let bits = if to4(ip).is_some() { 32 } else { 128 };
    insert_num(ip, &num, bits).map(Some)
}

fn subnet(net: &Net, new_bits: i64, num: &BigInt) -> Result<Net, String> {
    let (parent, addr_len) = mask_size(&net.mask);
    let new_len = parent.saturating_add(new_bits);
    if new_len > addr_len {
        return Err(format!("insufficient address space to extend prefix of {parent} by {new_bits}"));
    }
    // uint64(1<<uint64(newBits)) - 1, with Go's shift and wrap-around.
    let max = if (0..64).contains(&new_bits) { (1u64 << new_bits) - 1 } else { u64::MAX };
    if low_u64(num) > max {
        return Err(format!("prefix extension of {new_bits} does not accommodate a subnet numbered {num}"));
    }
    let ip = match &net.ip {
        Some(ip) => Some(insert_num(ip, num, new_len)?),
        None => None,
    };
    Ok(Net { ip, mask: cidr_mask(new_len, addr_len) })
}

fn check_v4(ip: &[u8]) -> Vec<u8> {
    to4(ip).unwrap_or_else(|| ip.to_vec())
}

fn step(ip: &[u8], up: bool) -> Vec<u8> {
    let mut v = check_v4(ip);
    for b in v.iter_mut().rev() {
        if up {
            *b = b.wrapping_add(1);
            if *b > 0 {
                break;
            }
        } else {
            *b = b.wrapping_sub(1);
            if *b < 255 {
                break;
            }
        }
    }
    v
}

fn address_range_last(n: &Net) -> Result<Ip, String> {
    let Some(first) = &n.ip else { return Ok(None) };
    let (prefix, bits) = mask_size(&n.mask);
    if prefix == bits {
        return Ok(Some(first.clone()));
    }
    let (first_int, bits) = ip_to_int(first);
    let host_len = (bits - prefix).max(0) as u64;
    let last = ((BigInt::from(1) << host_len) - 1) | first_int;
    int_to_ip(&last, bits).map(Some)
}

fn is_zero_ip(ip: &Ip) -> bool {
    match ip {
        Some(v) => {
            v.iter().all(|&b| b == 0) || (v.len() == 16 && v[..12] == V4_IN_V6 && v[12..].iter().all(|&b| b == 0))
        }
        None => false,
    }
}

fn previous_subnet(n: &Net, prefix_len: i64) -> Net {
    let start = n.ip.as_deref().map(check_v4).unwrap_or_default();
    let prev = step(&start, false);
    let m = cidr_mask(prefix_len, 8 * prev.len() as i64);
    Net { ip: apply_mask(&Some(prev), &m), mask: m }
}

fn next_subnet(n: &Net, prefix_len: i64) -> Result<(Net, bool), String> {
    let current_last = address_range_last(n)?;
    let len = current_last.as_ref().map_or(0, Vec::len) as i64;
    let mask = cidr_mask(prefix_len, 8 * len);
    let current = Net { ip: apply_mask(&current_last, &mask), mask: mask.clone() };
    let last = address_range_last(&current)?;
    let last = last.map(|l| step(&l, true));
    let rollover = is_zero_ip(&last);
    Ok((Net { ip: apply_mask(&last, &mask), mask }, rollover))
}

fn prefix_arg(v: &Value) -> Result<Net, String> {
    parse_cidr(v.as_str().unwrap_or_default()).map_err(|e| format!("invalid CIDR expression: {e}"))
}

fn cidrsubnets(a: &[Value]) -> Result<Value, FuncError> {
    let net = prefix_arg(&a[0]).map_err(|m| FuncError::Arg(0, m))?;
    let (start, _) = mask_size(&net.mask);
    let lens = &a[1..];
    if lens.is_empty() {
        return Ok(Value::list(Type::String, vec![]));
    }
    let first = go_int(&lens[0]).map_err(|m| FuncError::Arg(1, m))? + start;
    let ip_bits = net.ip.as_ref().map_or(0, Vec::len) as i64 * 8;
    let mut current = previous_subnet(&net, first);
    let mut out = Vec::with_capacity(lens.len());
    for (i, v) in lens.iter().enumerate() {
        let mut length = go_int(v).map_err(|m| FuncError::Arg(i + 1, m))?;
        if length < 1 {
            return Err(FuncError::Arg(i + 1, "must extend prefix by at least one bit".into()));
        }
        if length > 32 {
            return Err(FuncError::Arg(i + 1, "may not extend prefix by more than 32 bits".into()));
        }
        length += start;
        if length > ip_bits {
            let protocol = match ip_bits {
                32 => "IPv4",
                128 => "IPv6",
                _ => "IP",
            };
            return Err(FuncError::Arg(
                i + 1,
                format!("would extend prefix to {length} bits, which is too long for an {protocol} address"),
            ));
        }
        let (next, rollover) = next_subnet(&current, length).map_err(FuncError::Other)?;
        if rollover || !contains(&net, &next.ip) {
            return Err(FuncError::Arg(
                i + 1,
                format!(
                    "not enough remaining address space for a subnet with a prefix of {length} bits after {}",
                    net_string(&current)
                ),
            ));
        }
        current = next;
        out.push(Value::string(net_string(&current)));
    }
    Ok(Value::list(Type::String, out))
}

pub(super) fn register(r: &mut Registry) {
    r.add(Function {
        name: "cidrhost",
        params: vec![Param::new("prefix", Type::String), Param::new("hostnum", Type::Number)],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| {
            let num = go_big(&a[1]).map_err(FuncError::Other)?;
            let net = prefix_arg(&a[0]).map_err(FuncError::Other)?;
            let ip = host(&net, num).map_err(FuncError::Other)?;
            Ok(Value::string(ip_string(&ip)))
        },
    });
    r.add(Function {
        name: "cidrnetmask",
        params: vec![Param::new("prefix", Type::String)],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| {
            let net = prefix_arg(&a[0]).map_err(FuncError::Other)?;
            if net.ip.as_deref().and_then(to4).is_none() {
                return Err(FuncError::Other(format!(
                    "IPv6 addresses cannot have a netmask: {}",
                    a[0].as_str().unwrap_or_default()
                )));
            }
            Ok(Value::string(ip_string(&net.mask)))
        },
    });
    r.add(Function {
        name: "cidrsubnet",
        params: vec![
            Param::new("prefix", Type::String),
            Param::new("newbits", Type::Number),
            Param::new("netnum", Type::Number),
        ],
        variadic: None,
        returns: Returns::Type(Type::String),
        imp: |_, a, _| {
            let new_bits = go_int(&a[1]).map_err(FuncError::Other)?;
            let num = go_big(&a[2]).map_err(FuncError::Other)?;
            let net = prefix_arg(&a[0]).map_err(FuncError::Other)?;
            let sub = subnet(&net, new_bits, &num).map_err(FuncError::Other)?;
            Ok(Value::string(net_string(&sub)))
        },
    });
    r.add(Function {
        name: "cidrsubnets",
        params: vec![Param::new("prefix", Type::String)],
        variadic: Some(Param::new("newbits", Type::Number)),
        returns: Returns::Type(Type::list(Type::String)),
        imp: |_, a, _| cidrsubnets(a),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_addresses_as_go_does() {
        let p = |s: &str| net_string(&parse_cidr(s).unwrap());
        assert_eq!(p("10.1.2.3/24"), "10.1.2.0/24");
        assert_eq!(p("fd00:0:0:1::/64"), "fd00:0:0:1::/64");
        assert_eq!(p("::/0"), "::/0");
        assert_eq!(p("1:0:0:2:0:0:0:3/128"), "1:0:0:2::3/128");
        assert_eq!(p("::ffff:10.0.0.0/104"), "10.0.0.0/8");
        assert!(parse_cidr("1.2.3.4").is_err());
    }
}
