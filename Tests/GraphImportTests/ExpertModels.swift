/// What an expert models in each payload of the shared corpus, written from each API's
/// documentation (the objects it documents, their ids, how they refer to each other), never from
/// a draft: the yardstick `InitScoreTests` measures `init` with. Path patterns and field names
/// only; see `ExpertModel` for the notation. A key `$` is a bare value that is its own key, `$key`
/// the member name of an object keyed by data; an empty key an element owned by its parent.
enum ExpertModels {
    // MARK: Twitter API v1.1: statuses, their users, hashtags, media and places.

    static let tweetsV1 = ExpertModel(
        entities: [
            "Tweet = $[*] | $.statuses[*] | ..retweeted_status | ..quoted_status ; id",
            "User = $.users[*] | ..user | ..user_mentions[*] | ..source_user ; id",
            "Hashtag = ..hashtags[*] ; text",
            "Media = ..media[*] ; id",
            "Place = ..place ; id",
        ],
        relationships: [
            "Tweet.user -> User", "Tweet.retweeted_status -> Tweet", "Tweet.quoted_status -> Tweet",
            "Tweet.entities.user_mentions[*] -> User", "Tweet.entities.hashtags[*] -> Hashtag",
            "Tweet.entities.media[*] -> Media", "Tweet.extended_entities.media[*] -> Media", "Tweet.place -> Place",
            "Tweet.in_reply_to_status_id -> Tweet", "Tweet.in_reply_to_user_id -> User",
        ])

    // MARK: GitHub REST v3: issues, events, users, repositories.

    static let githubIssues = ExpertModel(
        entities: [
            "Issue = $[*].response[*] | $[*].response.items[*] ; id",
            "User = ..user | ..assignee | ..assignees[*] | ..creator ; id",
            "Label = ..labels[*] ; id",
            "Milestone = ..milestone ; id",
        ],
        relationships: [
            "Issue.user -> User", "Issue.assignee -> User", "Issue.assignees[*] -> User", "Issue.labels[*] -> Label",
            "Issue.milestone -> Milestone", "Milestone.creator -> User",
        ])

    static let githubEvents = ExpertModel(
        entities: [
            "Event = $[*] ; id",
            "User = ..actor | ..owner | ..user | $[*].payload.target ; id",
            "Org = $[*].org ; url",
            "Repo = $[*].repo | ..forkee | ..base.repo | ..head.repo ; id",
            "Commit = ..commits[*] ; sha",
            "Gist = ..gist ; id",
            "Issue = ..issue ; id",
            "Comment = ..comment ; id",
            "PullRequest = $[*].payload.pull_request ; id",
        ],
        relationships: [
            "Event.actor -> User", "Event.repo -> Repo", "Event.org -> Org", "Event.payload.commits[*] -> Commit",
            "Event.payload.forkee -> Repo", "Event.payload.issue -> Issue", "Event.payload.gist -> Gist", "Event.payload.target -> User",
            "Event.payload.comment -> Comment", "Event.payload.pull_request -> PullRequest", "Repo.owner -> User", "Issue.user -> User",
            "Gist.user -> User", "Comment.user -> User", "PullRequest.user -> User", "PullRequest.base.repo -> Repo",
            "PullRequest.head.repo -> Repo",
        ])

    // MARK: Reddit: things (t1 comment, t3 link, t5 subreddit) inside listings, keyed by fullname.

    static let reddit = ExpertModel(
        entities: [
            "Post = ..children[*][kind=t3].data ; name",
            "Comment = ..children[*][kind=t1].data | ..things[*][kind=t1].data ; name",
            "Subreddit = ..children[*][kind=t5].data ; name",
            "Award = ..all_awardings[*] ; id",
        ],
        relationships: [
            "Comment.link_id -> Post", "Comment.parent_id -> Comment", "Comment.replies.data.children[*].data -> Comment",
            "Post.all_awardings[*] -> Award", "Comment.all_awardings[*] -> Award",
        ])

    // MARK: Mastodon: statuses, accounts, tags, media attachments.

    static let mastodon = ExpertModel(
        entities: [
            "Status = $[*] | $.ancestors[*] | $.descendants[*] | ..reblog | $[*].status ; id",
            "Account = ..account | ..mentions[*] ; id",
            "Tag = ..tags[*] ; name",
            "MediaAttachment = ..media_attachments[*] ; id",
        ],
        relationships: [
            "Status.account -> Account", "Status.reblog -> Status", "Status.mentions[*] -> Account", "Status.tags[*] -> Tag",
            "Status.media_attachments[*] -> MediaAttachment", "Status.in_reply_to_id -> Status",
            "Status.in_reply_to_account_id -> Account",
        ])

    static let mastodonNotifications = ExpertModel(
        entities: [
            "Notification = $[*] ; id",
            "Status = $[*].status ; id",
            "Account = ..account | ..mentions[*] ; id",
        ],
        relationships: ["Notification.account -> Account", "Notification.status -> Status", "Status.account -> Account"])

    static let mastodonStatus = ExpertModel(
        entities: [
            "Status = $ ; id",
            "Account = ..account ; id",
            "Emoji = ..emojis[*] ; shortcode",
            "Field = ..fields[*] ;",
        ],
        relationships: ["Status.account -> Account", "Account.emojis[*] -> Emoji", "Account.fields[*] -> Field"])

    // MARK: JSON:API compound documents: resources by type and id, linked through `relationships`.

    static let jsonapiComplete = ExpertModel(
        entities: [
            "Article = $.data[*][type=article] ; id",
            "Person = $.included[*][type=people] ; id",
        ],
        relationships: ["Article.relationships.author.data -> Person"])

    static let jsonapiSingle = ExpertModel(
        entities: [
            "Article = $.data[type=articles] ; id",
            "Person = $.included[*][type=people] ; id",
            "Comment = $.included[*][type=comments] ; id",
        ],
        relationships: [
            "Article.relationships.author.data -> Person", "Article.relationships.comments.data[*] -> Comment",
            "Comment.relationships.author.data -> Person",
        ])

    // MARK: Batch 2.

    static let blueskyTimeline = ExpertModel(
        entities: [
            "Post = $.feed[*].post | $.feed[*].reply.root[uri] | $.feed[*].reply.parent[uri] ; uri",
            "Profile = ..author | ..reason.by ; did",
        ],
        relationships: ["Post.author -> Profile", "Post.record.reply.parent -> Post", "Post.record.reply.root -> Post"])

    static let blueskyNotifications = ExpertModel(
        entities: [
            "Notification = $.notifications[*] ; uri",
            "Profile = ..author ; did",
        ],
        relationships: ["Notification.author -> Profile"])

    static let notionBlocks = ExpertModel(
        entities: [
            "Block = $.results[*] ; id",
            "RichText = $.results[*]..text[*] | $.results[*]..caption[*] ;",
        ],
        relationships: ["Block..text[*] -> RichText"])

    static let notionPage = ExpertModel(
        entities: [
            "Page = $ ; id",
            "RichText = $.properties{*}.title[*] ;",
        ],
        relationships: ["Page.properties{*}.title[*] -> RichText"])

    static let kubernetes = ExpertModel(
        entities: [
            "Pod = $.items[*] ; metadata.uid",
            "Container = $.items[*].spec.containers[*] ;",
            "ContainerStatus = $.items[*].status.containerStatuses[*] ;",
            "Volume = $.items[*].spec.volumes[*] ;",
            "Condition = $.items[*].status.conditions[*] ;",
            "Owner = $.items[*].metadata.ownerReferences[*] ; uid",
        ],
        relationships: [
            "Pod.spec.containers[*] -> Container", "Pod.status.containerStatuses[*] -> ContainerStatus", "Pod.spec.volumes[*] -> Volume",
            "Pod.status.conditions[*] -> Condition", "Pod.metadata.ownerReferences[*] -> Owner",
        ])

    static let elasticsearchAggregations = ExpertModel(
        entities: ["Movie = $.hits.hits[*] ; _id"],
        relationships: ["Movie._source.genres[*] -> Genre", "Movie._source.actors[*] -> Person", "Movie._source.writers[*] -> Person"])

    static let elasticsearchCollapse = ExpertModel(
        entities: ["Product = $.hits.hits[*] | $.hits.hits[*].inner_hits{*}.hits.hits[*] ; _id"],
        relationships: ["Product.inner_hits{*}.hits.hits[*] -> Product"])

    static let trakt = ExpertModel(
        entities: [
            "Movie = ..movie ; ids.trakt",
            "CastCredit = $.cast[*] ;",
            "CrewCredit = $.crew{*}[*] ;",
        ],
        relationships: ["CastCredit.movie -> Movie", "CrewCredit.movie -> Movie"])

    static let jenkins = ExpertModel(
        entities: [
            "Plugin = $.plugins{*} ; name",
            "Developer = $.plugins{*}.developers[*] ; developerId",
        ],
        relationships: ["Plugin.developers[*] -> Developer", "Plugin.dependencies[*].name -> Plugin", "Plugin.labels[*] -> Label"])

    static let googleMaps = ExpertModel(entities: ["Element = $.rows[*].elements[*] ;"])

    static let bigquery = ExpertModel(entities: ["Row = $.rows[*] ;"])

    static let nwsGridpoint = ExpertModel(
        entities: [
            "Gridpoint = $ ; id",
            "Value = $.properties..values[*] ;",
        ],
        relationships: ["Gridpoint.properties..values[*] -> Value"])

    static let nwsStations = ExpertModel(
        entities: ["Station = $.features[*] ; id"],
        relationships: ["Station.properties.county -> Zone", "Station.properties.fireWeatherZone -> Zone"])

    static let steam = ExpertModel(
        entities: [
            "Interface = $.apilist.interfaces[*] ; name",
            "Method = $.apilist.interfaces[*].methods[*] ;",
            "Parameter = $.apilist.interfaces[*].methods[*].parameters[*] ;",
        ],
        relationships: ["Interface.methods[*] -> Method", "Method.parameters[*] -> Parameter"])

    static let crossref = ExpertModel(
        entities: [
            "Work = $.message.items[*] ; DOI",
            "Author = $.message.items[*].author[*] ;",
            "Reference = $.message.items[*].reference[*] ;",
            "License = $.message.items[*].license[*] ;",
            "Link = $.message.items[*].link[*] ;",
        ],
        relationships: [
            "Work.author[*] -> Author", "Work.reference[*] -> Reference", "Work.license[*] -> License", "Work.link[*] -> Link",
            "Work.member -> Member", "Reference.DOI -> Work",
        ])

    static let forecastSolar = ExpertModel(
        entities: [
            "Watts = $.result.watts{*} ; $key",
            "WattHoursPeriod = $.result.watt_hours_period{*} ; $key",
            "WattHours = $.result.watt_hours{*} ; $key",
            "WattHoursDay = $.result.watt_hours_day{*} ; $key",
        ])

    static let hackernewsItem = ExpertModel(
        entities: ["Item = $ ; id"],
        relationships: ["Item.kids[*] -> Item", "Item.parent -> Item", "Item.by -> User"])

    static let hackernewsUser = ExpertModel(
        entities: ["User = $ ; id"],
        relationships: ["User.submitted[*] -> Item"])

    static let hackernewsUpdates = ExpertModel(entities: ["Item = $.items[*] ; $", "User = $.profiles[*] ; $"])

    static let yelp = ExpertModel(
        entities: [
            "Business = $ ; id",
            "Category = $.categories[*] ; alias",
            "Hours = $.hours[*] ;",
            "OpenPeriod = $.hours[*].open[*] ;",
        ],
        relationships: ["Business.categories[*] -> Category", "Business.hours[*] -> Hours", "Hours.open[*] -> OpenPeriod"])

    static let prometheus = ExpertModel(
        entities: [
            "Series = $[*] ; metric",
            "Sample = $[*].values[*] ;",
        ],
        relationships: ["Series.values[*] -> Sample"])

    static let twitterV2Search = ExpertModel(
        entities: [
            "Tweet = $.data[*] | $.includes.tweets[*] ; id",
            "User = $.includes.users[*] ; id",
        ],
        relationships: [
            "Tweet.author_id -> User", "Tweet.in_reply_to_user_id -> User", "Tweet.referenced_tweets[*].id -> Tweet",
        ])

    static let twitterV2Quotes = ExpertModel(
        entities: [
            "Tweet = $.data[*] ; id",
            "User = $.includes.users[*] ; id",
            "ContextDomain = ..context_annotations[*].domain ; id",
            "ContextEntity = ..context_annotations[*].entity ; id",
        ],
        relationships: ["Tweet.author_id -> User", "Tweet.context_annotations[*].entity -> ContextEntity", "Tweet.conversation_id -> Tweet"])

    static let usgs = ExpertModel(entities: ["Earthquake = $.features[*] ; id"])

    static let all: [String: ExpertModel] = [
        "bigquery/tabledata-array-of-structs.json": bigquery,
        "bigquery/tabledata-struct-of-arrays.json": bigquery,
        "bluesky/app.bsky.feed.getTimeline.json": blueskyTimeline,
        "bluesky/app.bsky.notification.listNotifications.json": blueskyNotifications,
        "crossref/works-query-widget-cursor-start.json": crossref,
        "elasticsearch/search-collapse-inner-hits.json": elasticsearchCollapse,
        "elasticsearch/search-facets-aggregations.json": elasticsearchAggregations,
        "forecast-solar/estimate-personal.json": forecastSolar,
        "github/octokit-fixtures-paginate-issues.json": githubIssues,
        "github/octokit-fixtures-search-issues.json": githubIssues,
        "github/octokit.rb-issues.json": ExpertModel(
            entities: [
                "Issue = $[*] ; url",
                "User = ..user | ..assignee | ..creator ; login",
                "Label = ..labels[*] ; url",
                "Milestone = ..milestone ; url",
            ],
            relationships: [
                "Issue.user -> User", "Issue.assignee -> User", "Issue.labels[*] -> Label", "Issue.milestone -> Milestone",
                "Milestone.creator -> User",
            ]),
        "github/octokit.rb-public_events.json": githubEvents,
        "github/octokit.rb-repo_events.json": githubEvents,
        "google-maps/distance-matrix.json": googleMaps,
        "hackernews/item-21500569.json": hackernewsItem,
        "hackernews/item-21500829.json": hackernewsItem,
        "hackernews/item-21500985.json": hackernewsItem,
        "hackernews/item-21501055.json": hackernewsItem,
        "hackernews/updates.json": hackernewsUpdates,
        "hackernews/user-tomek.json": hackernewsUser,
        "jenkins/update-center.json": jenkins,
        "jsonapi/complete.json": jsonapiComplete,
        "jsonapi/data_and_included-single_resource.json": jsonapiSingle,
        "kubernetes/podlist-kube-system.json": kubernetes,
        "mastodon/bigbone-context.json": mastodon,
        "mastodon/bigbone-public_timeline.json": mastodon,
        "mastodon/bigbone-status_with_previewcard.json": mastodonStatus,
        "mastodon/bigbone-tag_timeline.json": mastodon,
        "mastodon/mastodon4j-context.json": mastodon,
        "mastodon/mastodon4j-notifications.json": mastodonNotifications,
        "mastodon/mastodon4j-public_timeline.json": mastodon,
        "mastodon/mastodon4j-tag.json": mastodon,
        "notion/blocks-children-first-100.json": notionBlocks,
        "notion/page.json": notionPage,
        "nws/gridpoints-TAE-58-65-raw.json": nwsGridpoint,
        "nws/gridpoints-stations.json": nwsStations,
        "prometheus/query-range-up-result.json": prometheus,
        "reddit/comment-more.json": reddit,
        "reddit/listings-posts-comments-subreddits.json": reddit,
        "reddit/post-duplicates.json": reddit,
        "reddit/post-post.json": reddit,
        "reddit/subreddit-list.json": reddit,
        "reddit/subreddit-search-posts.json": reddit,
        "reddit/user-overview.json": reddit,
        "steam/ISteamWebAPIUtil-GetSupportedAPIList-v1.json": steam,
        "trakt/people-nm0186505-movies.json": trakt,
        "twitter-v1.1/get_followers_0.json": tweetsV1,
        "twitter-v1.1/get_home_timeline.json": tweetsV1,
        "twitter-v1.1/get_retweets.json": tweetsV1,
        "twitter-v1.1/get_search_raw.json": tweetsV1,
        "twitter-v1.1/get_user_timeline_count.json": tweetsV1,
        "twitter-v2/search_tweets_query.json": twitterV2Search,
        "twitter-v2/tweet_quote_tweets_resp.json": twitterV2Quotes,
        "usgs/earthquakes.json": usgs,
        "yelp/business-sacre-coeur-paris.json": yelp,
    ]
}
