//! Expressions for the table's requests, written as values: what an update sets, adds and
//! removes ([`Update`]), what a write or a read requires of the item ([`Cond`]), and what a
//! Query's key must be ([`KeyCond`]). Attribute names and values are placed for the caller:
//! each path segment becomes a `#nN` name and each value a `:vN` value, numbered in the order
//! they are written, so no call site spells a placeholder, and a reserved word or a player's id
//! used as a map key is always safe. [`Expressions`] puts them on any request builder of the SDK
//! that takes expressions.
//!
//! ```ignore
//! let tap = Update::new()
//!     .set(attr("taps").key(user.as_str()), tap_value)
//!     .add(attr("tap_count"), n(1));
//! let open = Cond::eq(attr("n"), n(round))
//!     .and(Cond::not_exists(attr("resolved_at_ms")))
//!     .and(Cond::contains(attr("players"), s(user.as_str())));
//! db.client.update_item().set_key(..).expressions(Expr::update(tap).when(open));
//! ```

use std::collections::HashMap;
use std::fmt::Write;

use aws_sdk_dynamodb::types::AttributeValue;

/// A path to an attribute: a top-level name, then map keys (`.key`) and list places (`.at`).
#[derive(Debug, Clone, PartialEq)]
pub struct Path(Vec<Step>);

#[derive(Debug, Clone, PartialEq)]
enum Step {
    Name(String),
    Index(usize),
}

/// The top-level attribute `name`.
pub fn attr(name: impl Into<String>) -> Path {
    Path(vec![Step::Name(name.into())])
}

impl Path {
    /// The member `key` of this map attribute.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.0.push(Step::Name(key.into()));
        self
    }

    /// The element `index` of this list attribute.
    pub fn at(mut self, index: usize) -> Self {
        self.0.push(Step::Index(index));
        self
    }
}

/// What a write's right-hand side may be.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    Value(AttributeValue),
    /// `if_not_exists(path, value)`: the attribute as it is, or `value` when it is absent.
    IfNotExists(Path, AttributeValue),
    /// `if_not_exists(path, start) + value`: a count that may not exist yet, moved on.
    CountFrom(Path, AttributeValue, AttributeValue),
    /// `list_append(path, value)`: the list with `value`'s elements after its own.
    Append(Path, AttributeValue),
    /// `path + value` / `path - value`.
    Plus(Path, AttributeValue),
    Minus(Path, AttributeValue),
}

impl From<AttributeValue> for Operand {
    fn from(value: AttributeValue) -> Self {
        Self::Value(value)
    }
}

/// An update expression's clauses, in the order they are written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Update {
    set: Vec<(Path, Operand)>,
    add: Vec<(Path, AttributeValue)>,
    remove: Vec<Path>,
    delete: Vec<(Path, AttributeValue)>,
}

impl Update {
    pub fn new() -> Self {
        Self::default()
    }

    /// `SET path = operand`.
    pub fn set(mut self, path: Path, operand: impl Into<Operand>) -> Self {
        self.set.push((path, operand.into()));
        self
    }

    /// `ADD path value`: a number added to (or a set's elements put into) the attribute.
    pub fn add(mut self, path: Path, value: AttributeValue) -> Self {
        self.add.push((path, value));
        self
    }

    /// `REMOVE path`.
    pub fn remove(mut self, path: Path) -> Self {
        self.remove.push(path);
        self
    }

    /// `DELETE path value`: a set's elements taken out of the attribute.
    pub fn delete(mut self, path: Path, value: AttributeValue) -> Self {
        self.delete.push((path, value));
        self
    }

    /// Whether nothing is written.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
            && self.add.is_empty()
            && self.remove.is_empty()
            && self.delete.is_empty()
    }
}

/// How a condition compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Compare {
    fn sign(self) -> &'static str {
        match self {
            Self::Eq => "=",
            Self::Ne => "<>",
            Self::Lt => "<",
            Self::Le => "<=",
            Self::Gt => ">",
            Self::Ge => ">=",
        }
    }
}

/// What a condition may compare a path with: a value, or another attribute.
#[derive(Debug, Clone, PartialEq)]
pub enum Side {
    Value(AttributeValue),
    Path(Path),
}

impl From<AttributeValue> for Side {
    fn from(value: AttributeValue) -> Self {
        Self::Value(value)
    }
}

impl From<Path> for Side {
    fn from(path: Path) -> Self {
        Self::Path(path)
    }
}

/// A condition on an item (a write's, a filter's).
#[derive(Debug, Clone, PartialEq)]
pub enum Cond {
    Compare(Path, Compare, Side),
    Between(Path, AttributeValue, AttributeValue),
    In(Path, Vec<AttributeValue>),
    Exists(Path),
    NotExists(Path),
    Contains(Path, AttributeValue),
    BeginsWith(Path, AttributeValue),
    /// `size(path) <op> value`.
    Size(Path, Compare, AttributeValue),
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Not(Box<Cond>),
}

impl Cond {
    pub fn eq(path: Path, side: impl Into<Side>) -> Self {
        Self::Compare(path, Compare::Eq, side.into())
    }

    pub fn ne(path: Path, side: impl Into<Side>) -> Self {
        Self::Compare(path, Compare::Ne, side.into())
    }

    pub fn lt(path: Path, side: impl Into<Side>) -> Self {
        Self::Compare(path, Compare::Lt, side.into())
    }

    pub fn le(path: Path, side: impl Into<Side>) -> Self {
        Self::Compare(path, Compare::Le, side.into())
    }

    pub fn gt(path: Path, side: impl Into<Side>) -> Self {
        Self::Compare(path, Compare::Gt, side.into())
    }

    pub fn ge(path: Path, side: impl Into<Side>) -> Self {
        Self::Compare(path, Compare::Ge, side.into())
    }

    pub fn exists(path: Path) -> Self {
        Self::Exists(path)
    }

    pub fn not_exists(path: Path) -> Self {
        Self::NotExists(path)
    }

    pub fn contains(path: Path, value: AttributeValue) -> Self {
        Self::Contains(path, value)
    }

    pub fn begins_with(path: Path, value: AttributeValue) -> Self {
        Self::BeginsWith(path, value)
    }

    /// This and `other` (a run of `and`s stays one flat list).
    pub fn and(self, other: Cond) -> Self {
        match self {
            Self::And(mut all) => {
                all.push(other);
                Self::And(all)
            }
            one => Self::And(vec![one, other]),
        }
    }

    /// This or `other` (a run of `or`s stays one flat list).
    pub fn or(self, other: Cond) -> Self {
        match self {
            Self::Or(mut any) => {
                any.push(other);
                Self::Or(any)
            }
            one => Self::Or(vec![one, other]),
        }
    }

    #[allow(clippy::should_implement_trait)]
    pub fn not(self) -> Self {
        Self::Not(Box::new(self))
    }
}

/// A Query's key condition: the partition key's value, and perhaps the sort key's range.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyCond {
    partition: (String, AttributeValue),
    sort: Option<SortKey>,
}

#[derive(Debug, Clone, PartialEq)]
enum SortKey {
    Compare(String, Compare, AttributeValue),
    Between(String, AttributeValue, AttributeValue),
    BeginsWith(String, AttributeValue),
}

impl KeyCond {
    /// Items whose partition key `name` is `value`.
    pub fn partition(name: &str, value: AttributeValue) -> Self {
        Self {
            partition: (name.to_owned(), value),
            sort: None,
        }
    }

    /// ... whose sort key `name` begins with `prefix`.
    pub fn begins_with(mut self, name: &str, prefix: AttributeValue) -> Self {
        self.sort = Some(SortKey::BeginsWith(name.to_owned(), prefix));
        self
    }

    /// ... whose sort key `name` is between `low` and `high`, both included.
    pub fn between(mut self, name: &str, low: AttributeValue, high: AttributeValue) -> Self {
        self.sort = Some(SortKey::Between(name.to_owned(), low, high));
        self
    }

    /// ... whose sort key `name` compares with `value` so.
    pub fn compare(mut self, name: &str, compare: Compare, value: AttributeValue) -> Self {
        self.sort = Some(SortKey::Compare(name.to_owned(), compare, value));
        self
    }
}

/// A request's expressions as the SDK takes them: the texts, and the names and values they
/// refer to (each placed once per distinct name or value; a key condition's own are `#pk`,
/// `:pk`, `#sk`, `:sk`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Expr {
    pub update: Option<String>,
    pub condition: Option<String>,
    pub key_condition: Option<String>,
    pub filter: Option<String>,
    pub projection: Option<String>,
    pub names: HashMap<String, String>,
    pub values: HashMap<String, AttributeValue>,
}

impl Expr {
    /// The expressions of an update.
    pub fn update(update: Update) -> Self {
        let mut expr = Self::default();
        let text = expr.render_update(&update);
        expr.update = Some(text);
        expr
    }

    /// The expressions of a write or check conditioned on `cond` alone.
    pub fn condition(cond: Cond) -> Self {
        Self::default().when(cond)
    }

    /// The expressions of a Query by `key`.
    pub fn query(key: KeyCond) -> Self {
        let mut expr = Self::default();
        let text = expr.render_key(&key);
        expr.key_condition = Some(text);
        expr
    }

    /// These expressions, the write (or check) conditioned on `cond` too.
    pub fn when(mut self, cond: Cond) -> Self {
        let text = self.render_cond(&cond);
        self.condition = Some(text);
        self
    }

    /// These expressions, the items read filtered by `cond` too.
    pub fn filter(mut self, cond: Cond) -> Self {
        let text = self.render_cond(&cond);
        self.filter = Some(text);
        self
    }

    /// These expressions, only `paths` read of each item.
    pub fn project(mut self, paths: impl IntoIterator<Item = Path>) -> Self {
        let text = paths
            .into_iter()
            .map(|path| self.path(&path))
            .collect::<Vec<_>>()
            .join(", ");
        self.projection = Some(text);
        self
    }

    fn name(&mut self, name: &str) -> String {
        let mine = |p: &String| p.starts_with("#n");
        if let Some((placeholder, _)) = self
            .names
            .iter()
            .find(|(p, n)| mine(p) && n.as_str() == name)
        {
            return placeholder.clone();
        }
        let placeholder = format!("#n{}", self.names.keys().filter(|p| mine(p)).count());
        self.names.insert(placeholder.clone(), name.to_owned());
        placeholder
    }

    fn value(&mut self, value: &AttributeValue) -> String {
        let mine = |p: &String| p.starts_with(":v");
        if let Some((placeholder, _)) = self.values.iter().find(|(p, v)| mine(p) && *v == value) {
            return placeholder.clone();
        }
        let placeholder = format!(":v{}", self.values.keys().filter(|p| mine(p)).count());
        self.values.insert(placeholder.clone(), value.clone());
        placeholder
    }

    fn path(&mut self, path: &Path) -> String {
        let mut text = String::new();
        for step in &path.0 {
            match step {
                Step::Name(name) => {
                    if !text.is_empty() {
                        text.push('.');
                    }
                    let placeholder = self.name(name);
                    text.push_str(&placeholder);
                }
                Step::Index(index) => {
                    let _ = write!(text, "[{index}]");
                }
            }
        }
        text
    }

    fn operand(&mut self, operand: &Operand) -> String {
        match operand {
            Operand::Value(value) => self.value(value),
            Operand::IfNotExists(path, value) => {
                format!("if_not_exists({}, {})", self.path(path), self.value(value))
            }
            Operand::CountFrom(path, start, value) => format!(
                "if_not_exists({}, {}) + {}",
                self.path(path),
                self.value(start),
                self.value(value)
            ),
            Operand::Append(path, value) => {
                format!("list_append({}, {})", self.path(path), self.value(value))
            }
            Operand::Plus(path, value) => format!("{} + {}", self.path(path), self.value(value)),
            Operand::Minus(path, value) => format!("{} - {}", self.path(path), self.value(value)),
        }
    }

    fn side(&mut self, side: &Side) -> String {
        match side {
            Side::Value(value) => self.value(value),
            Side::Path(path) => self.path(path),
        }
    }

    fn render_update(&mut self, update: &Update) -> String {
        let mut clauses = Vec::new();
        if !update.set.is_empty() {
            let parts: Vec<String> = update
                .set
                .iter()
                .map(|(path, operand)| format!("{} = {}", self.path(path), self.operand(operand)))
                .collect();
            clauses.push(format!("SET {}", parts.join(", ")));
        }
        for (word, pairs) in [("ADD", &update.add), ("DELETE", &update.delete)] {
            if !pairs.is_empty() {
                let parts: Vec<String> = pairs
                    .iter()
                    .map(|(path, value)| format!("{} {}", self.path(path), self.value(value)))
                    .collect();
                clauses.push(format!("{word} {}", parts.join(", ")));
            }
        }
        if !update.remove.is_empty() {
            let parts: Vec<String> = update.remove.iter().map(|p| self.path(p)).collect();
            clauses.push(format!("REMOVE {}", parts.join(", ")));
        }
        clauses.join(" ")
    }

    fn render_cond(&mut self, cond: &Cond) -> String {
        match cond {
            Cond::Compare(path, compare, side) => {
                format!("{} {} {}", self.path(path), compare.sign(), self.side(side))
            }
            Cond::Between(path, low, high) => format!(
                "{} BETWEEN {} AND {}",
                self.path(path),
                self.value(low),
                self.value(high)
            ),
            Cond::In(path, values) => {
                let path = self.path(path);
                let values: Vec<String> = values.iter().map(|v| self.value(v)).collect();
                format!("{path} IN ({})", values.join(", "))
            }
            Cond::Exists(path) => format!("attribute_exists({})", self.path(path)),
            Cond::NotExists(path) => format!("attribute_not_exists({})", self.path(path)),
            Cond::Contains(path, value) => {
                format!("contains({}, {})", self.path(path), self.value(value))
            }
            Cond::BeginsWith(path, value) => {
                format!("begins_with({}, {})", self.path(path), self.value(value))
            }
            Cond::Size(path, compare, value) => format!(
                "size({}) {} {}",
                self.path(path),
                compare.sign(),
                self.value(value)
            ),
            Cond::And(all) => self.joined(all, " AND "),
            Cond::Or(any) => self.joined(any, " OR "),
            Cond::Not(inner) => format!("NOT ({})", self.render_cond(inner)),
        }
    }

    fn joined(&mut self, conds: &[Cond], with: &str) -> String {
        let parts: Vec<String> = conds
            .iter()
            .map(|c| match c {
                Cond::And(_) | Cond::Or(_) => format!("({})", self.render_cond(c)),
                c => self.render_cond(c),
            })
            .collect();
        parts.join(with)
    }

    /// The key condition, with placeholders of its own (`#pk`, `#sk`, `:pk`, `:sk`, `:sk2`):
    /// a builder made with a key condition (`Db::query_partition`) may be given the caller's
    /// filter or projection later, numbered from `#n0`, and the two never meet.
    fn render_key(&mut self, key: &KeyCond) -> String {
        let (name, value) = &key.partition;
        self.names.insert("#pk".into(), name.clone());
        self.values.insert(":pk".into(), value.clone());
        let mut text = "#pk = :pk".to_owned();
        let mut sort = |name: &String, values: &[&AttributeValue]| {
            self.names.insert("#sk".into(), name.clone());
            for (i, value) in values.iter().enumerate() {
                let placeholder = if i == 0 {
                    ":sk".into()
                } else {
                    format!(":sk{}", i + 1)
                };
                self.values.insert(placeholder, (*value).clone());
            }
        };
        match &key.sort {
            None => {}
            Some(SortKey::Compare(name, compare, value)) => {
                sort(name, &[value]);
                let _ = write!(text, " AND #sk {} :sk", compare.sign());
            }
            Some(SortKey::Between(name, low, high)) => {
                sort(name, &[low, high]);
                text.push_str(" AND #sk BETWEEN :sk AND :sk2");
            }
            Some(SortKey::BeginsWith(name, prefix)) => {
                sort(name, &[prefix]);
                text.push_str(" AND begins_with(#sk, :sk)");
            }
        }
        text
    }
}

/// An SDK request builder that takes expressions: [`Expr`] puts its own on it, its names and
/// values added to any the builder has (a helper's key condition, `#pk`/`:pk`, stays; the
/// builder's placeholders never look like `#nN` or `:vN`).
pub trait Expressions: Sized {
    fn expressions(self, expr: Expr) -> Self;
}

/// `Expressions` for a builder with the setters of the fields named.
macro_rules! takes {
    ($builder:ty: $($field:ident => $setter:ident),*) => {
        impl Expressions for $builder {
            fn expressions(self, expr: Expr) -> Self {
                let Expr { names, values, $($field,)* .. } = expr;
                let builder = names
                    .into_iter()
                    .fold(self, |b, (k, v)| b.expression_attribute_names(k, v));
                let builder = values
                    .into_iter()
                    .fold(builder, |b, (k, v)| b.expression_attribute_values(k, v));
                $(let builder = match $field {
                    Some(text) => builder.$setter(Some(text)),
                    None => builder,
                };)*
                builder
            }
        }
    };
}

use aws_sdk_dynamodb::operation;
use aws_sdk_dynamodb::types::builders as parts;

takes!(operation::update_item::builders::UpdateItemFluentBuilder:
    update => set_update_expression, condition => set_condition_expression);
takes!(operation::put_item::builders::PutItemFluentBuilder:
    condition => set_condition_expression);
takes!(operation::delete_item::builders::DeleteItemFluentBuilder:
    condition => set_condition_expression);
takes!(operation::query::builders::QueryFluentBuilder:
    key_condition => set_key_condition_expression, filter => set_filter_expression,
    projection => set_projection_expression);
takes!(operation::scan::builders::ScanFluentBuilder:
    filter => set_filter_expression, projection => set_projection_expression);
takes!(parts::UpdateBuilder:
    update => set_update_expression, condition => set_condition_expression);
takes!(parts::PutBuilder: condition => set_condition_expression);
takes!(parts::DeleteBuilder: condition => set_condition_expression);
takes!(parts::ConditionCheckBuilder: condition => set_condition_expression);

/// A GetItem takes names and a projection, no values.
impl Expressions for operation::get_item::builders::GetItemFluentBuilder {
    fn expressions(self, expr: Expr) -> Self {
        let builder = expr
            .names
            .into_iter()
            .fold(self, |b, (k, v)| b.expression_attribute_names(k, v));
        builder.set_projection_expression(expr.projection)
    }
}
