//! The one table's definition, written once and rendered two ways: as the `CreateTable` call the
//! server makes at start-up (and `udd-server create-table`), and as the CloudFormation template in
//! `infra/udd-table.yaml` (a test keeps the file equal to what this module renders).

use std::time::Duration;

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    LocalSecondaryIndex, OnDemandThroughput, Projection, ProjectionType, ScalarAttributeType,
    StreamSpecification, StreamViewType, TableDescription, TableStatus, TimeToLiveSpecification,
    TimeToLiveStatus,
};

use super::db::Db;
use super::error::classify;
use super::error::DataError;
use super::keys::{GSI1, GSI1PK, GSI1SK, GSI2, GSI2PK, GSI2SK, LSI1, LSI1SK, PK, SK, TTL};

/// A secondary index: its name and key attributes. Every index projects all attributes.
#[derive(Debug, Clone, Copy)]
pub struct IndexSpec {
    pub name: &'static str,
    pub hash: &'static str,
    pub range: &'static str,
}

/// Every key attribute (all strings), in declaration order.
pub const KEY_ATTRIBUTES: &[&str] = &[PK, SK, GSI1PK, GSI1SK, GSI2PK, GSI2SK, LSI1SK];

pub const GLOBAL_INDEXES: &[IndexSpec] = &[
    IndexSpec {
        name: GSI1,
        hash: GSI1PK,
        range: GSI1SK,
    },
    IndexSpec {
        name: GSI2,
        hash: GSI2PK,
        range: GSI2SK,
    },
];

pub const LOCAL_INDEXES: &[IndexSpec] = &[IndexSpec {
    name: LSI1,
    hash: PK,
    range: LSI1SK,
}];

/// The most read and write request units a second an on-demand table may use (`None`: no
/// ceiling, DynamoDB's default). A ceiling turns a runaway (a bug, an abuser, a load test
/// pointed at production) into throttling instead of a bill; set it well above the busiest
/// evening (see `docs/operating.md`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ceiling {
    pub max_read_units: Option<i64>,
    pub max_write_units: Option<i64>,
}

impl Ceiling {
    /// The table's `OnDemandThroughput`, when it has a ceiling.
    fn throughput(self) -> Option<OnDemandThroughput> {
        if self == Self::default() {
            return None;
        }
        Some(
            OnDemandThroughput::builder()
                .set_max_read_request_units(self.max_read_units)
                .set_max_write_request_units(self.max_write_units)
                .build(),
        )
    }
}

/// What `ensure_table` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableOutcome {
    Created,
    AlreadyExisted,
}

fn key_schema(hash: &str, range: &str) -> Vec<KeySchemaElement> {
    [(hash, KeyType::Hash), (range, KeyType::Range)]
        .into_iter()
        .map(|(name, kind)| {
            KeySchemaElement::builder()
                .attribute_name(name)
                .key_type(kind)
                .build()
                .expect("name and type are set")
        })
        .collect()
}

fn projection_all() -> Projection {
    Projection::builder()
        .projection_type(ProjectionType::All)
        .build()
}

impl Db {
    /// The table's latest stream, if it has one: one DescribeTable (what the projector reads).
    pub async fn latest_stream_arn(&self) -> Result<Option<String>, DataError> {
        Ok(self.describe().await?.and_then(|t| t.latest_stream_arn))
    }

    /// The table as DynamoDB describes it, or `None` when it does not exist: one DescribeTable.
    async fn describe(&self) -> Result<Option<TableDescription>, DataError> {
        let started = std::time::Instant::now();
        let result = self
            .client
            .describe_table()
            .table_name(self.table_name())
            .send()
            .await;
        self.record("DescribeTable", None, started);
        match result {
            Ok(out) => Ok(out.table),
            Err(err)
                if err
                    .as_service_error()
                    .is_some_and(|e| e.is_resource_not_found_exception()) =>
            {
                Ok(None)
            }
            Err(err) => Err(classify(err)),
        }
    }

    /// Creates the table if it does not exist, waits until it is active and makes sure TTL is
    /// on. Safe to call from many instances at once.
    #[tracing::instrument(skip(self), fields(table = %self.table_name()), err(level = "debug"))]
    pub async fn ensure_table(&self) -> Result<TableOutcome, DataError> {
        self.ensure_table_with(Ceiling::default()).await
    }

    /// [`Db::ensure_table`], a table it creates given `ceiling` (one that exists is left as it
    /// is: `aws dynamodb update-table --on-demand-throughput` changes it).
    pub async fn ensure_table_with(&self, ceiling: Ceiling) -> Result<TableOutcome, DataError> {
        let outcome = match self.table_status().await? {
            Some(_) => TableOutcome::AlreadyExisted,
            None => self.create_table(ceiling).await?,
        };
        self.wait_until_active().await?;
        self.ensure_ttl().await?;
        Ok(outcome)
    }

    /// The table's status, or `None` when it does not exist.
    pub async fn table_status(&self) -> Result<Option<TableStatus>, DataError> {
        Ok(self.describe().await?.and_then(|t| t.table_status))
    }

    async fn create_table(&self, ceiling: Ceiling) -> Result<TableOutcome, DataError> {
        let attributes = KEY_ATTRIBUTES.iter().map(|name| {
            AttributeDefinition::builder()
                .attribute_name(*name)
                .attribute_type(ScalarAttributeType::S)
                .build()
                .expect("name and type are set")
        });
        let globals = GLOBAL_INDEXES.iter().map(|ix| {
            GlobalSecondaryIndex::builder()
                .index_name(ix.name)
                .set_key_schema(Some(key_schema(ix.hash, ix.range)))
                .projection(projection_all())
                .build()
                .expect("name and keys are set")
        });
        let locals = LOCAL_INDEXES.iter().map(|ix| {
            LocalSecondaryIndex::builder()
                .index_name(ix.name)
                .set_key_schema(Some(key_schema(ix.hash, ix.range)))
                .projection(projection_all())
                .build()
                .expect("name and keys are set")
        });
        let started = std::time::Instant::now();
        // iam: operator (the service on AWS only checks the table: `check_table`)
        let result = self
            .client
            .create_table()
            .table_name(self.table_name())
            .set_attribute_definitions(Some(attributes.collect()))
            .set_key_schema(Some(key_schema(PK, SK)))
            .set_global_secondary_indexes(Some(globals.collect()))
            .set_local_secondary_indexes(Some(locals.collect()))
            .billing_mode(BillingMode::PayPerRequest)
            .set_on_demand_throughput(ceiling.throughput())
            .stream_specification(
                StreamSpecification::builder()
                    .stream_enabled(true)
                    .stream_view_type(StreamViewType::NewAndOldImages)
                    .build()
                    .expect("enabled is set"),
            )
            .send()
            .await;
        self.record("CreateTable", None, started);
        match result {
            Ok(_) => {
                tracing::info!(table = self.table_name(), "created the table");
                Ok(TableOutcome::Created)
            }
            // Another instance won the race to create it.
            Err(err)
                if err
                    .as_service_error()
                    .is_some_and(|e| e.is_resource_in_use_exception()) =>
            {
                Ok(TableOutcome::AlreadyExisted)
            }
            Err(err) => Err(classify(err)),
        }
    }

    async fn wait_until_active(&self) -> Result<(), DataError> {
        for _ in 0..240 {
            if self.table_status().await? == Some(TableStatus::Active) {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        Err(DataError::Unavailable(
            format!(
                "table {} did not become active within 60 s",
                self.table_name()
            )
            .into(),
        ))
    }

    /// Checks that the table exists, is active and keeps TTL on, without changing anything:
    /// what the server does on AWS, where the table is the operator's (its CloudFormation
    /// stack) and the service's role may not create or alter it. A clear error otherwise.
    #[tracing::instrument(skip(self), fields(table = %self.table_name()), err(level = "debug"))]
    pub async fn check_table(&self) -> Result<(), DataError> {
        let missing = |what: &str| {
            DataError::Unavailable(
                format!(
                    "table {} {what}: deploy infra/udd-service.yaml (or run `udd-server \
                     create-table` with an operator's credentials)",
                    self.table_name()
                )
                .into(),
            )
        };
        match self.table_status().await? {
            None => return Err(missing("does not exist")),
            Some(TableStatus::Active | TableStatus::Updating) => {}
            Some(_) => self.wait_until_active().await?,
        }
        if !self.ttl_on().await? {
            return Err(missing("does not have TTL on"));
        }
        Ok(())
    }

    /// Whether TTL is on (or turning on): one DescribeTimeToLive.
    async fn ttl_on(&self) -> Result<bool, DataError> {
        let started = std::time::Instant::now();
        let described = self
            .client
            .describe_time_to_live()
            .table_name(self.table_name())
            .send()
            .await;
        self.record("DescribeTimeToLive", None, started);
        let status = described
            .map_err(classify)?
            .time_to_live_description
            .and_then(|d| d.time_to_live_status);
        Ok(matches!(
            status,
            Some(TimeToLiveStatus::Enabled | TimeToLiveStatus::Enabling)
        ))
    }

    async fn ensure_ttl(&self) -> Result<(), DataError> {
        if self.ttl_on().await? {
            return Ok(());
        }
        let started = std::time::Instant::now();
        // iam: operator (the service on AWS only checks the table: `check_table`)
        let result = self
            .client
            .update_time_to_live()
            .table_name(self.table_name())
            .time_to_live_specification(
                TimeToLiveSpecification::builder()
                    .attribute_name(TTL)
                    .enabled(true)
                    .build()
                    .expect("name and flag are set"),
            )
            .send()
            .await;
        self.record("UpdateTimeToLive", None, started);
        result.map(|_| ()).map_err(classify)
    }
}

/// The CloudFormation template for the table, as kept in `infra/udd-table.yaml`.
pub fn cloudformation_template() -> String {
    let mut t = String::from(
        "# Udd's one DynamoDB table, a stack of its own: the service stack (udd-service.yaml) imports\n\
         # its exports, so a failed or deleted service never touches the data. Generated by\n\
         # `udd-server template`; a test fails when this file and app/src/store/table.rs disagree.\n\
         AWSTemplateFormatVersion: \"2010-09-09\"\n\
         Description: Udd single-table design (PK/SK, GSI1, GSI2, LSI1, TTL, stream)\n\
         Parameters:\n  TableName:\n    Type: String\n    Default: udd\n\
         \x20 MaxReadUnits:\n    Type: Number\n    Default: -1\n    MinValue: -1\n\
         \x20   Description: The most read request units a second the table may use; -1 for no ceiling\n\
         \x20 MaxWriteUnits:\n    Type: Number\n    Default: -1\n    MinValue: -1\n\
         \x20   Description: The most write request units a second the table may use; -1 for no ceiling\n\
         Conditions:\n\
         \x20 HasReadCeiling: !Not [!Equals [!Ref MaxReadUnits, \"-1\"]]\n\
         \x20 HasWriteCeiling: !Not [!Equals [!Ref MaxWriteUnits, \"-1\"]]\n\
         \x20 HasCeiling: !Or [!Condition HasReadCeiling, !Condition HasWriteCeiling]\n\
         Resources:\n  UddTable:\n    Type: AWS::DynamoDB::Table\n\
         \x20   DeletionPolicy: Retain\n    UpdateReplacePolicy: Retain\n    Properties:\n\
         \x20     TableName: !Ref TableName\n      BillingMode: PAY_PER_REQUEST\n\
         \x20     OnDemandThroughput: !If\n        - HasCeiling\n\
         \x20       - MaxReadRequestUnits: !If [HasReadCeiling, !Ref MaxReadUnits, !Ref AWS::NoValue]\n\
         \x20         MaxWriteRequestUnits: !If [HasWriteCeiling, !Ref MaxWriteUnits, !Ref AWS::NoValue]\n\
         \x20       - !Ref AWS::NoValue\n\
         \x20     DeletionProtectionEnabled: true\n\
         \x20     AttributeDefinitions:\n",
    );
    for name in KEY_ATTRIBUTES {
        t += &format!("        - AttributeName: {name}\n          AttributeType: S\n");
    }
    let keys = |t: &mut String, indent: &str, hash: &str, range: &str| {
        *t += &format!("{indent}KeySchema:\n");
        for (name, kind) in [(hash, "HASH"), (range, "RANGE")] {
            *t += &format!("{indent}  - AttributeName: {name}\n{indent}    KeyType: {kind}\n");
        }
    };
    keys(&mut t, "      ", PK, SK);
    for (section, indexes) in [
        ("GlobalSecondaryIndexes", GLOBAL_INDEXES),
        ("LocalSecondaryIndexes", LOCAL_INDEXES),
    ] {
        t += &format!("      {section}:\n");
        for ix in indexes {
            t += &format!("        - IndexName: {}\n", ix.name);
            keys(&mut t, "          ", ix.hash, ix.range);
            t += "          Projection:\n            ProjectionType: ALL\n";
        }
    }
    t += &format!(
        "      TimeToLiveSpecification:\n        AttributeName: {TTL}\n        Enabled: true\n\
         \x20     StreamSpecification:\n        StreamViewType: NEW_AND_OLD_IMAGES\n\
         \x20     PointInTimeRecoverySpecification:\n        PointInTimeRecoveryEnabled: true\n\
         Outputs:\n"
    );
    // The service stack (`infra/udd-service.yaml`) imports these by this stack's name.
    for (name, value) in [
        ("TableName", "!Ref UddTable"),
        ("TableArn", "!GetAtt UddTable.Arn"),
        ("StreamArn", "!GetAtt UddTable.StreamArn"),
    ] {
        t += &format!(
            "  {name}:\n    Value: {value}\n    Export:\n      Name: !Sub \"${{AWS::StackName}}-{name}\"\n"
        );
    }
    t
}
